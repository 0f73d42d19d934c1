import type { PushKinds, PushSubscriptionAnswer } from '../../../shared/push';
import { api } from '../../lib/api';

// The browser's side of the push opt-in: the service worker's PushManager and /api/push. Nothing
// here runs before the member presses "turn on" (the permission prompt comes only from turnOn).

export type PushState = { status: 'checking' | 'unsupported' | 'denied' | 'off' } | { status: 'on'; endpoint: string; kinds: PushKinds };

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  // main.ts registers it after load; registering again returns the same one. A worker that cannot
  // install never becomes ready: give up after a while (the member sees "could not be turned on").
  await navigator.serviceWorker.register('/sw.js');
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('service worker not ready')), 15_000)),
  ]);
}

/** base64url -> bytes (the VAPID public key as applicationServerKey). */
function keyBytes(b64u: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64u.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/** What this browser has now, without asking anything. */
export async function currentState(): Promise<PushState> {
  if (!pushSupported()) return { status: 'unsupported' };
  if (Notification.permission === 'denied') return { status: 'denied' };
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  if (!sub) return { status: 'off' };
  const answer = await api().get<PushSubscriptionAnswer>('push/subscription', { endpoint: sub.endpoint });
  return answer.subscription ? { status: 'on', ...answer.subscription } : { status: 'off' };
}

export class PushUnavailable extends Error {}

/** Asks for the permission (the only place that does), subscribes this browser and stores it for the member. */
export async function turnOn(): Promise<PushState> {
  const { publicKey } = await api().get<{ publicKey: string | null }>('push/key');
  if (!publicKey) throw new PushUnavailable('no_vapid_key');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { status: permission === 'denied' ? 'denied' : 'off' };
  const reg = await registration();
  const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = sub.toJSON();
  const answer = await api().post<PushSubscriptionAnswer>('push/subscription', { endpoint: sub.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } });
  return answer.subscription ? { status: 'on', ...answer.subscription } : { status: 'off' };
}

export async function setKinds(endpoint: string, kinds: Partial<PushKinds>): Promise<PushState> {
  const answer = await api().patch<PushSubscriptionAnswer>('push/subscription', { endpoint, kinds });
  return answer.subscription ? { status: 'on', ...answer.subscription } : { status: 'off' };
}

/** Ends this browser's subscription at the push service and here. */
export async function turnOff(endpoint: string): Promise<PushState> {
  const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  await sub?.unsubscribe().catch(() => false);
  await api()
    .delete('push/subscription', { endpoint })
    .catch(() => undefined);
  return { status: 'off' };
}

/**
 * Logging out ends this browser's subscription (here and at the push service), so the next person
 * at a shared device gets none of the member's notices. Never holds the logout up for long.
 */
export async function endPushOnLogout(): Promise<void> {
  if (!pushSupported()) return;
  const work = (async () => {
    const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
    if (sub) await turnOff(sub.endpoint);
  })().catch(() => undefined);
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, 2_000))]);
}
