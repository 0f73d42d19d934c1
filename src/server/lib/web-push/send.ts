import { b64uDecode, encryptPayload } from './encrypt';
import { vapidAuthorization, type VapidKeys } from './vapid';

// One push to one subscription (RFC 8030 section 5): the encrypted body POSTed to its endpoint.

export interface PushTarget {
  endpoint: string;
  /** base64url, as PushSubscription.toJSON() gives them. */
  p256dh: string;
  auth: string;
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

/** How long the push service may keep an undelivered message (seconds): a live show is news for a while only. */
const TTL_S = 60 * 60;
const TIMEOUT_MS = 10_000;

/**
 * Sends and says what became of it: 'gone' when the push service no longer knows the
 * subscription (404/410, RFC 8030 section 7.3: the caller deletes it), 'failed' otherwise.
 */
export async function sendPush(target: PushTarget, payload: unknown, keys: VapidKeys): Promise<PushOutcome> {
  const body = await encryptPayload(new TextEncoder().encode(JSON.stringify(payload)), b64uDecode(target.p256dh), b64uDecode(target.auth));
  try {
    const res = await fetch(target.endpoint, {
      method: 'POST',
      headers: {
        Authorization: await vapidAuthorization(target.endpoint, keys),
        'Content-Encoding': 'aes128gcm',
        'Content-Type': 'application/octet-stream',
        TTL: String(TTL_S),
        Urgency: 'normal',
      },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.status === 404 || res.status === 410) return 'gone';
    return res.ok ? 'sent' : 'failed';
  } catch {
    return 'failed';
  }
}
