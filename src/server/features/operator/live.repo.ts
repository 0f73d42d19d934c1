// All SQL of the operators' view of live shows (issue 29 point 2): the shows online now.

export interface LiveRow {
  id: number;
  name: string;
  slug: string;
  online_since: number | null;
}

const LIVE_MAX = 200;

/** Shows online now, longest online first. */
export async function liveShowRows(db: D1Database): Promise<LiveRow[]> {
  const { results } = await db
    .prepare('SELECT id, name, slug_name AS slug, online_since FROM shows WHERE online = 1 ORDER BY online_since, id LIMIT ?')
    .bind(LIVE_MAX)
    .all<LiveRow>();
  return results;
}

/** Whether the show is online (null: no such show). */
export async function showOnline(db: D1Database, id: number): Promise<boolean | null> {
  const row = await db.prepare('SELECT online FROM shows WHERE id = ?').bind(id).first<{ online: number }>();
  return row ? row.online === 1 : null;
}
