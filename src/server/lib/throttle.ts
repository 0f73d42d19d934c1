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

export function hitStatement(db: D1Database, key: string, windowSeconds: number, now = Math.floor(Date.now() / 1000)) {
  return db.prepare(HIT_SQL).bind(key, now, windowSeconds);
}

export async function hit(db: D1Database, key: string, windowSeconds: number, now = Math.floor(Date.now() / 1000)): Promise<ThrottleResult> {
  const row = await hitStatement(db, key, windowSeconds, now).first<{ count: number; reset_at: number }>();
  return { count: row?.count ?? 1, retryAfter: Math.max(1, (row?.reset_at ?? now) - now) };
}

/** The current count in the window without counting this request. */
export async function peek(db: D1Database, keys: string[], now = Math.floor(Date.now() / 1000)): Promise<ThrottleResult> {
  if (keys.length === 0) return { count: 0, retryAfter: 0 };
  const { results } = await db
    .prepare(`SELECT count, reset_at FROM throttle WHERE key IN (${keys.map(() => '?').join(', ')}) AND reset_at > ?`)
    .bind(...keys, now)
    .all<{ count: number; reset_at: number }>();
  let worst = { count: 0, retryAfter: 0 };
  for (const r of results) if (r.count > worst.count) worst = { count: r.count, retryAfter: Math.max(1, r.reset_at - now) };
  return worst;
}

export async function clear(db: D1Database, key: string): Promise<void> {
  await db.prepare('DELETE FROM throttle WHERE key = ?').bind(key).run();
}
