import { PUSH_MAX_PER_MEMBER, type PushKind, type PushKinds } from '../../../shared/push';

// All SQL of push subscriptions (migrations/0035_push.sql).

interface Row {
  endpoint: string;
  favorite_online: number;
  message: number;
}

export interface SubscriptionView {
  endpoint: string;
  kinds: PushKinds;
}

export interface Target {
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  locale: string;
}

const view = (r: Row): SubscriptionView => ({ endpoint: r.endpoint, kinds: { favorite_online: r.favorite_online === 1, message: r.message === 1 } });
const flag = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);

/**
 * Stores the browser's subscription for the member. The endpoint names one browser profile: when
 * another member subscribed it before (a shared device), it now belongs to this member alone.
 */
export async function upsertSubscription(
  db: D1Database,
  userId: number,
  s: { endpoint: string; p256dh: string; auth: string; kinds?: Partial<PushKinds> },
  now: number,
): Promise<SubscriptionView> {
  const upsert = db
    .prepare(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, favorite_online, message, created_at)
       VALUES (?1, ?2, ?3, ?4, COALESCE(?5, 1), COALESCE(?6, 1), ?7)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
         favorite_online = excluded.favorite_online, message = excluded.message, created_at = excluded.created_at
       RETURNING endpoint, favorite_online, message`,
    )
    .bind(userId, s.endpoint, s.p256dh, s.auth, flag(s.kinds?.favorite_online), flag(s.kinds?.message), now);
  // The newest PUSH_MAX_PER_MEMBER browsers only: a member cannot fill the table (or the sends) with endpoints.
  const trim = db
    .prepare(
      `DELETE FROM push_subscriptions WHERE user_id = ?1 AND id NOT IN
         (SELECT id FROM push_subscriptions WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2)`,
    )
    .bind(userId, PUSH_MAX_PER_MEMBER);
  const [first] = await db.batch<Row>([upsert, trim]);
  return view(first.results[0]);
}

export async function ownSubscription(db: D1Database, userId: number, endpoint: string): Promise<SubscriptionView | null> {
  const row = await db.prepare('SELECT endpoint, favorite_online, message FROM push_subscriptions WHERE user_id = ? AND endpoint = ?').bind(userId, endpoint).first<Row>();
  return row ? view(row) : null;
}

/** Changes the kinds of the member's own subscription; null when the member has none at that endpoint. */
export async function updateKinds(db: D1Database, userId: number, endpoint: string, kinds: Partial<PushKinds>): Promise<SubscriptionView | null> {
  const row = await db
    .prepare(
      `UPDATE push_subscriptions SET favorite_online = COALESCE(?3, favorite_online), message = COALESCE(?4, message)
       WHERE user_id = ?1 AND endpoint = ?2 RETURNING endpoint, favorite_online, message`,
    )
    .bind(userId, endpoint, flag(kinds.favorite_online), flag(kinds.message))
    .first<Row>();
  return row ? view(row) : null;
}

export async function deleteOwnSubscription(db: D1Database, userId: number, endpoint: string): Promise<boolean> {
  const r = await db.prepare('DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?').bind(userId, endpoint).run();
  return r.meta.changes > 0;
}

/** The auth secret stored with an endpoint (null: no such subscription). */
export async function authOf(db: D1Database, endpoint: string): Promise<string | null> {
  return (await db.prepare('SELECT auth FROM push_subscriptions WHERE endpoint = ?').bind(endpoint).first<{ auth: string }>())?.auth ?? null;
}

/**
 * Moves a subscription to the browser's new endpoint and keys, keeping its member and kinds. Only
 * while the old row still has that auth secret (two reports at once: one moves it). A row the new
 * endpoint already had (subscribed anew meanwhile) is replaced.
 */
export async function renewSubscription(db: D1Database, old: { endpoint: string; auth: string }, next: { endpoint: string; p256dh: string; auth: string }): Promise<boolean> {
  const r = await db
    .prepare('UPDATE OR REPLACE push_subscriptions SET endpoint = ?3, p256dh = ?4, auth = ?5 WHERE endpoint = ?1 AND auth = ?2')
    .bind(old.endpoint, old.auth, next.endpoint, next.p256dh, next.auth)
    .run();
  return r.meta.changes > 0;
}

/** The push service said the subscription is gone (404/410). */
export async function deleteEndpoint(db: D1Database, endpoint: string): Promise<void> {
  await db.prepare('DELETE FROM push_subscriptions WHERE endpoint = ?').bind(endpoint).run();
}

/** The member's subscriptions that want this kind, with the member's language (blocked accounts get nothing). */
export async function targetsOf(db: D1Database, userId: number, kind: PushKind): Promise<Target[]> {
  const { results } = await db
    .prepare(
      `SELECT p.user_id, p.endpoint, p.p256dh, p.auth, u.locale
       FROM push_subscriptions p JOIN users u ON u.id = p.user_id
       WHERE p.user_id = ?1 AND u.blocked = 0
         AND CASE ?2 WHEN 'favorite_online' THEN p.favorite_online WHEN 'message' THEN p.message ELSE 0 END = 1`,
    )
    .bind(userId, kind)
    .all<Target>();
  return results;
}
