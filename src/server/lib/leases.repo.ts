import { nowSeconds } from './clock';

// Concurrency caps in D1 (migration 0024): at most `limit` pieces of work in flight per key. The
// count and the INSERT are one statement, so a burst cannot slip past the cap between a read and
// a write; a lease whose release was lost (the isolate went away) ends at its expiry.

export type Lease = { ok: true; release: () => Promise<void> } | { ok: false; retryAfter: number };

const PRUNE_CHANCE = 0.01;

/** Takes one of `limit` leases of `key` for at most `ttlSeconds`, or says how long to wait. */
export async function takeLease(db: D1Database, key: string, limit: number, ttlSeconds: number, now = nowSeconds()): Promise<Lease> {
  const id = crypto.randomUUID();
  // Now and then every expired lease goes (keys that are never used again would keep theirs).
  const prune = Math.random() < PRUNE_CHANCE ? 'DELETE FROM leases WHERE expires_at <= ?2' : 'DELETE FROM leases WHERE key = ?1 AND expires_at <= ?2';
  const [, taken, soonest] = await db.batch([
    db.prepare(prune).bind(key, now),
    db
      .prepare('INSERT INTO leases (key, id, expires_at) SELECT ?1, ?2, ?3 + ?4 WHERE (SELECT COUNT(*) FROM leases WHERE key = ?1 AND expires_at > ?3) < ?5')
      .bind(key, id, now, ttlSeconds, limit),
    db.prepare('SELECT MIN(expires_at) AS at FROM leases WHERE key = ?1 AND id != ?2').bind(key, id),
  ]);
  if ((taken.meta.changes ?? 0) > 0) {
    let released = false;
    return {
      ok: true,
      release: async () => {
        if (released) return;
        released = true;
        await db.prepare('DELETE FROM leases WHERE key = ? AND id = ?').bind(key, id).run();
      },
    };
  }
  const at = (soonest.results[0] as { at: number | null } | undefined)?.at ?? now + 1;
  return { ok: false, retryAfter: Math.max(1, at - now) };
}
