// Geo-blocking (issue 30 point 3): the show a video's or gallery's generated picture belongs to.

/** The show of a video or gallery by id (null: no such item). */
export async function itemShowId(db: D1Database, kind: 'video' | 'gallery', id: number): Promise<number | null> {
  const row = await db
    .prepare(kind === 'video' ? 'SELECT show_id FROM videos WHERE id = ?' : 'SELECT show_id FROM galleries WHERE id = ?')
    .bind(id)
    .first<{ show_id: number }>();
  return row?.show_id ?? null;
}
