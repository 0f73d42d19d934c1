// Live shows an operator stopped (issue 29 point 2, migration 0031): written by the operators'
// stop, read by the performer's studio (which shows the latest reason until the show goes online again).

export interface ShowStop {
  reason: string;
  at: number;
}

export async function addShowStop(db: D1Database, showId: number, reason: string, by: number, at: number): Promise<void> {
  await db.prepare('INSERT INTO show_stops (show_id, reason, stopped_by, at) VALUES (?, ?, ?, ?)').bind(showId, reason, by, at).run();
}

/** The show's latest stop, unless the show went online after it. */
export function currentShowStop(db: D1Database, showId: number): Promise<ShowStop | null> {
  return db
    .prepare(
      `SELECT t.reason, t.at FROM show_stops t JOIN shows s ON s.id = t.show_id
       WHERE t.show_id = ?1 AND COALESCE(s.online_since, 0) <= t.at ORDER BY t.at DESC, t.id DESC LIMIT 1`,
    )
    .bind(showId)
    .first<ShowStop>();
}
