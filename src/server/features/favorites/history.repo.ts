import { HISTORY_MAX, type HistoryItem } from '../../../shared/favorites';

/**
 * Records that the member opened a show: the visit becomes the newest (seq = their highest + 1)
 * and, in the same batch, everything beyond the newest HISTORY_MAX is trimmed, so parallel
 * visits can never leave more. Answers false when the show does not exist.
 */
export async function recordVisit(db: D1Database, userId: number, showId: number, now: number): Promise<boolean> {
  const [, , show] = await db.batch([
    // A show already on top stays as it is (opening it again changes nothing).
    db
      .prepare(
        `INSERT INTO user_history (user_id, show_id, seq, visited_at)
         SELECT ?1, s.id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM user_history WHERE user_id = ?1), ?3 FROM shows s WHERE s.id = ?2
         ON CONFLICT (user_id, show_id) DO UPDATE SET seq = excluded.seq, visited_at = excluded.visited_at
         WHERE user_history.seq < (SELECT MAX(seq) FROM user_history WHERE user_id = ?1)`,
      )
      .bind(userId, showId, now),
    db
      .prepare('DELETE FROM user_history WHERE user_id = ?1 AND seq <= (SELECT seq FROM user_history WHERE user_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)')
      .bind(userId, HISTORY_MAX),
    db.prepare('SELECT COUNT(*) AS n FROM shows WHERE id = ?').bind(showId),
  ]);
  return (show.results[0] as { n: number }).n === 1;
}

/** The member's history, newest first. */
export async function listHistory(db: D1Database, userId: number): Promise<HistoryItem[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.universal_id, s.name, s.slug_name, s.online, h.visited_at FROM user_history h JOIN shows s ON s.id = h.show_id
       WHERE h.user_id = ? ORDER BY h.seq DESC LIMIT ?`,
    )
    .bind(userId, HISTORY_MAX)
    .all<{ id: number; universal_id: string; name: string; slug_name: string; online: number; visited_at: number }>();
  return results.map((r) => ({ id: r.id, universalId: r.universal_id, name: r.name, slugName: r.slug_name, online: r.online === 1, visited_at: r.visited_at }));
}

export async function clearHistory(db: D1Database, userId: number): Promise<number> {
  const r = await db.prepare('DELETE FROM user_history WHERE user_id = ?').bind(userId).run();
  return r.meta.changes ?? 0;
}
