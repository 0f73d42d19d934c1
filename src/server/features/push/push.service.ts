import type { Locale } from '../../../shared/constants';
import type { PushKind, PushMessage } from '../../../shared/push';
import type { Bindings } from '../../env';
import { i18nFor } from '../../lib/i18n';
import { sendPush } from '../../lib/web-push/send';
import type { VapidKeys } from '../../lib/web-push/vapid';
import { deleteEndpoint, targetsOf } from './push.repo';

// Sending push notifications to a member's opted-in browsers. Callers run it after their answer
// (waitUntil): a slow or failing push service never holds up a request.

/** The VAPID keys of the configuration; null (nothing is sent) until an operator sets them. */
export function vapidKeys(env: Bindings): VapidKeys | null {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.VAPID_PRIVATE_KEY?.trim();
  if (!publicKey || !privateKey) return null;
  return { publicKey, privateKey, subject: env.VAPID_SUBJECT?.trim() || `mailto:${env.SUPPORT_EMAIL ?? 'support@livecam.example'}` };
}

/**
 * The browsers' push services (Chrome, Firefox, Edge and Windows, Safari): the only hosts a member's
 * subscription may name, so the worker never posts to an address of a member's choosing.
 * PUSH_SERVICE_HOSTS (comma-separated) replaces the list: tests name their local receiver.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

export function isPushService(env: Bindings, endpoint: string): boolean {
  const hosts = env.PUSH_SERVICE_HOSTS?.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean) ?? PUSH_SERVICE_HOSTS;
  const host = new URL(endpoint).hostname.toLowerCase();
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

export interface Notice {
  /** Locale key under `push.`, with `.title` and `.body` texts. */
  key: string;
  vars?: Record<string, string>;
  /** A same-origin path the notification opens. */
  url: string;
  /** Notifications with one tag replace each other on the device. */
  tag: string;
}

/** Pushes a notice of a kind to every browser of the member that wants that kind; gone subscriptions are deleted. Resolves to the number sent. */
export async function pushToMember(env: Bindings, userId: number, kind: PushKind, notice: Notice): Promise<number> {
  const keys = vapidKeys(env);
  if (!keys) return 0;
  const targets = await targetsOf(env.DB, userId, kind);
  const outcomes = await Promise.all(
    targets.map(async (target) => {
      const t = i18nFor((target.locale === 'de' ? 'de' : 'en') as Locale).t;
      const message: PushMessage = { kind, title: t(`push.${notice.key}.title`, notice.vars), body: t(`push.${notice.key}.body`, notice.vars), url: notice.url, tag: notice.tag };
      const outcome = await sendPush(target, message, keys).catch(() => 'failed' as const);
      if (outcome === 'gone') await deleteEndpoint(env.DB, target.endpoint);
      return outcome;
    }),
  );
  return outcomes.filter((o) => o === 'sent').length;
}
