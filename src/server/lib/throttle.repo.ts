import { nowSeconds } from './clock';

// Fixed-window counters in D1: one atomic UPSERT per hit, so concurrent requests cannot
// slip past the limit between a read and a write.
export interface ThrottleResult {
  count: number;
  retryAfter: number;
}

const HIT_SQL = `INSERT INTO throttle (key, count, reset_at) VALUES (?1, 1, ?2 + ?3)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN reset_at <= ?2 THEN 1 ELSE count + 1 END,
    reset_at = CASE WHEN reset_at <= ?2 THEN ?2 + ?3 ELSE reset_at END
  RETURNING count, reset_at`;

export function hitStatement(db: D1Database, key: string, windowSeconds: number, now = nowSeconds()) {
  return db.prepare(HIT_SQL).bind(key, now, windowSeconds);
}

export async function hit(db: D1Database, key: string, windowSeconds: number, now = nowSeconds()): Promise<ThrottleResult> {
  const row = await hitStatement(db, key, windowSeconds, now).first<{ count: number; reset_at: number }>();
  return { count: row?.count ?? 1, retryAfter: Math.max(1, (row?.reset_at ?? now) - now) };
}

export async function clear(db: D1Database, key: string): Promise<void> {
  await db.prepare('DELETE FROM throttle WHERE key = ?').bind(key).run();
}

/** One counter to reserve: at most `limit` hits per window of `windowSeconds`. */
export interface Reservation {
  key: string;
  limit: number;
  windowSeconds: number;
}

export type Reserved = { ok: true; refund: () => Promise<void> } | { ok: false; retryAfter: number };

const PRUNE_CHANCE = 0.01;
const REFUND_SQL = 'UPDATE throttle SET count = count - 1 WHERE key = ? AND reset_at = ? AND count > 0';

/**
 * Reserves one hit on every counter in one transaction, before the work it guards. Granted only
 * when no counter went over its limit; otherwise the hits that were within their limits are handed
 * back, so a refused request uses up nothing. `refund` hands back a granted reservation whose
 * work turned out not to count (e.g. a login that succeeded). Each granted request saw a count of
 * at most the limit, and a count only falls again by a refund, so at most `limit` requests per
 * window do the work and keep their reservation, however many arrive at once.
 */
export async function reserve(db: D1Database, list: Reservation[], now = nowSeconds()): Promise<Reserved> {
  if (list.length === 0) return { ok: true, refund: async () => undefined };
  const hits = list.map((r) => hitStatement(db, r.key, r.windowSeconds, now));
  // Now and then the counters whose window has ended are dropped, so the table holds only live
  // windows (every key would otherwise stay forever). First in the batch: the hits recreate theirs.
  const prune = Math.random() < PRUNE_CHANCE ? [db.prepare('DELETE FROM throttle WHERE reset_at <= ?').bind(now)] : [];
  const results = (await db.batch<{ count: number; reset_at: number }>([...prune, ...hits])).slice(prune.length);
  const rows = results.map((r, i) => ({ ...list[i], count: r.results[0]?.count ?? 1, resetAt: r.results[0]?.reset_at ?? now + list[i].windowSeconds }));
  const giveBack = (which: typeof rows) =>
    which.length ? db.batch(which.map((r) => db.prepare(REFUND_SQL).bind(r.key, r.resetAt))).then(() => undefined) : Promise.resolve();
  const over = rows.filter((r) => r.count > r.limit);
  if (over.length === 0) return { ok: true, refund: () => giveBack(rows) };
  await giveBack(rows.filter((r) => r.count <= r.limit));
  return { ok: false, retryAfter: Math.max(...over.map((r) => Math.max(1, r.resetAt - now))) };
}
