import { z } from 'zod';

// Push notifications (issue 30 point 5): the kinds a member may turn on and off, and the bodies
// of /api/push. A subscription is what the browser's PushManager gives: its endpoint (a URL of
// the browser's push service) and two keys, base64url.

export const PUSH_KINDS = ['favorite_online', 'message'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];
export type PushKinds = Record<PushKind, boolean>;
/** Browsers one member may have subscribed at once; a new one beyond it replaces the oldest. */
export const PUSH_MAX_PER_MEMBER = 10;

const base64url = (bytes: number) => z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'invalid_key').refine((s) => s.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3), 'invalid_key');

/** Push services use https endpoints only; 1,000 characters is far above any real one. */
const endpoint = z.url({ protocol: /^https$/, error: 'invalid_endpoint' }).max(1000, 'invalid_endpoint');

const kinds = z.object({ favorite_online: z.boolean().optional(), message: z.boolean().optional() }).strict();

export const pushSubscribeBody = z.object({
  endpoint,
  // An uncompressed P-256 point (65 bytes) and a 16-byte auth secret (RFC 8291 section 2).
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
  kinds: kinds.optional(),
});
export type PushSubscribeBody = z.infer<typeof pushSubscribeBody>;

export const pushKindsBody = z.object({ endpoint, kinds });
export const pushEndpointBody = z.object({ endpoint });

/**
 * The service worker's report that the browser replaced its subscription (pushsubscriptionchange):
 * the old one's endpoint and auth secret (which only that browser and this site know) stand for the
 * member; the new one takes its place with the same member and kinds.
 */
export const pushRenewBody = z.object({
  old_endpoint: endpoint,
  old_auth: base64url(16),
  endpoint,
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
});

export interface PushSubscriptionAnswer {
  subscription: { endpoint: string; kinds: PushKinds } | null;
}

/** What a push carries (the service worker shows it): texts in the member's language, a same-origin path. */
export interface PushMessage {
  kind: PushKind;
  title: string;
  body: string;
  url: string;
  tag: string;
}
