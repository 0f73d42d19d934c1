// The places each show is hidden from (migration 0038).

/** The shows hidden from a place with these codes (its country, its region). */
export async function hiddenShowIds(db: D1Database, codes: string[]): Promise<number[]> {
  if (codes.length === 0) return [];
  const { results } = await db
    .prepare(`SELECT DISTINCT show_id FROM show_geo_blocks WHERE code IN (${codes.map(() => '?').join(', ')}) ORDER BY show_id`)
    .bind(...codes)
    .all<{ show_id: number }>();
  return results.map((r) => r.show_id);
}

/** One show's rules, sorted. */
export async function showGeoCodes(db: D1Database, showId: number): Promise<string[]> {
  const { results } = await db.prepare('SELECT code FROM show_geo_blocks WHERE show_id = ? ORDER BY code').bind(showId).all<{ code: string }>();
  return results.map((r) => r.code);
}

/** Replaces a show's rules in one batch (a parallel save leaves one whole set, never a mix). */
export async function replaceShowGeoCodes(db: D1Database, showId: number, codes: string[]): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM show_geo_blocks WHERE show_id = ?').bind(showId),
    ...codes.map((code) => db.prepare('INSERT OR IGNORE INTO show_geo_blocks (show_id, code) VALUES (?, ?)').bind(showId, code)),
  ]);
}
