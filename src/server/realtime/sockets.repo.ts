import { nowSeconds } from '../lib/clock';

// Slots of open lobby sockets (migrations/0011_realtime_sockets.sql).

export interface SocketCaps {
  perSession: number;
  perAddress: number;
  ttlSeconds: number;
}


/**
 * Reserves a slot for one more socket, or returns null when the session or the address holds its
 * cap already. One statement: concurrent upgrades cannot both see the last free slot.
 */
export async function reserveSocket(db: D1Database, owner: { sessionId: string | null; address: string }, caps: SocketCaps): Promise<string | null> {
  const id = crypto.randomUUID();
  const row = await db
    .prepare(
      `INSERT INTO realtime_sockets (id, session_id, address, expires_at)
       SELECT ?1, ?2, ?3, ?4 + ?5
       WHERE (?2 IS NULL OR (SELECT COUNT(*) FROM realtime_sockets WHERE session_id = ?2 AND expires_at > ?4) < ?6)
         AND (SELECT COUNT(*) FROM realtime_sockets WHERE address = ?3 AND expires_at > ?4) < ?7
       RETURNING id`,
    )
    .bind(id, owner.sessionId, owner.address, nowSeconds(), caps.ttlSeconds, caps.perSession, caps.perAddress)
    .first<{ id: string }>();
  return row?.id ?? null;
}

export async function releaseSocket(db: D1Database, id: string): Promise<void> {
  await db.prepare('DELETE FROM realtime_sockets WHERE id = ?').bind(id).run();
}

/** Keeps the slots of sockets that are still open, and drops the expired ones of any shard. */
export async function renewSockets(db: D1Database, ids: string[], ttlSeconds: number): Promise<void> {
  const now = nowSeconds();
  const statements = [db.prepare('DELETE FROM realtime_sockets WHERE expires_at <= ?').bind(now)];
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90);
    statements.push(db.prepare(`UPDATE realtime_sockets SET expires_at = ? WHERE id IN (${chunk.map(() => '?').join(', ')})`).bind(now + ttlSeconds, ...chunk));
  }
  await db.batch(statements);
}
