// The places shows are hidden from (show_geo_blocks, migration 0038), as the lobby needs them:
// a status push about a show never reaches a socket from a place the show is hidden from.

/** The rules of some shows: show id -> codes (shows without rules are absent). */
export async function geoCodesOf(db: D1Database, showIds: number[]): Promise<Record<number, string[]>> {
  const out: Record<number, string[]> = {};
  if (showIds.length === 0) return out;
  const { results } = await db
    .prepare('SELECT show_id, code FROM show_geo_blocks WHERE show_id IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(showIds))
    .all<{ show_id: number; code: string }>();
  for (const r of results) (out[r.show_id] ??= []).push(r.code);
  return out;
}
