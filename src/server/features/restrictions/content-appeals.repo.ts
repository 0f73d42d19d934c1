// Appeals against a removed or refused upload (migration 0036): filed by the item's performer,
// decided by an operator (upheld, or reinstated: the item is approved again).

export type ContentKind = 'video' | 'gallery';

const table = (kind: ContentKind) => (kind === 'video' ? 'videos' : 'galleries');

/**
 * Files an appeal for a rejected item of the show; null when the item is not this show's, not
 * rejected, or already has an open appeal (the unique index refuses a second, parallel ones too).
 */
export async function insertContentAppeal(db: D1Database, kind: ContentKind, itemId: number, showId: number, userId: number, text: string, now: number): Promise<number | null> {
  try {
    const row = await db
      .prepare(
        `INSERT INTO content_appeals (kind, item_id, show_id, user_id, decision_reason, text, created_at)
         SELECT ?1, i.id, i.show_id, ?3, COALESCE(i.review_reason, ''), ?4, ?5 FROM ${table(kind)} i
         WHERE i.id = ?2 AND i.show_id = ?6 AND i.review = 'rejected' RETURNING id`,
      )
      .bind(kind, itemId, userId, text, now, showId)
      .first<{ id: number }>();
    return row?.id ?? null;
  } catch (e) {
    if (String(e).includes('UNIQUE')) return null;
    throw e;
  }
}

export interface OpenContentAppeal {
  id: number;
  kind: ContentKind;
  item_id: number;
  show_id: number;
  show_name: string;
  title_en: string;
  decision_reason: string;
  text: string;
  created_at: number;
}

export async function openContentAppeals(db: D1Database, limit: number): Promise<OpenContentAppeal[]> {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.kind, a.item_id, a.show_id, s.name AS show_name, COALESCE(v.title_en, g.title_en, '') AS title_en, a.decision_reason, a.text, a.created_at
       FROM content_appeals a JOIN shows s ON s.id = a.show_id
       LEFT JOIN videos v ON a.kind = 'video' AND v.id = a.item_id
       LEFT JOIN galleries g ON a.kind = 'gallery' AND g.id = a.item_id
       WHERE a.decided_at IS NULL ORDER BY a.id LIMIT ?`,
    )
    .bind(limit)
    .all<OpenContentAppeal>();
  return results;
}

export interface DecidedContentAppeal {
  kind: ContentKind;
  item_id: number;
  show_id: number;
}

/**
 * Decides an open appeal once; reinstated then approves the item again (if it is still rejected and
 * has its record of the people in it). Null when the appeal is unknown or decided already.
 */
export async function decideContentAppealRow(db: D1Database, id: number, outcome: 'upheld' | 'reinstated', answer: string, by: number, now: number): Promise<DecidedContentAppeal | null> {
  const row = await db
    .prepare(`UPDATE content_appeals SET decided_at = ?2, decided_by = ?3, outcome = ?4, answer = ?5 WHERE id = ?1 AND decided_at IS NULL RETURNING kind, item_id, show_id`)
    .bind(id, now, by, outcome, answer)
    .first<DecidedContentAppeal>();
  if (row && outcome === 'reinstated') {
    await db
      .prepare(`UPDATE ${table(row.kind)} SET review = 'approved', review_reason = NULL, reviewed_by = ?2, reviewed_at = ?3 WHERE id = ?1 AND review = 'rejected'
         AND EXISTS (SELECT 1 FROM item_performers WHERE kind = ?4 AND item_id = ?1)`)
      .bind(row.item_id, by, now, row.kind)
      .run();
  }
  return row;
}

/** Whether the item has an open appeal. */
export async function hasOpenContentAppeal(db: D1Database, kind: ContentKind, itemId: number): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS x FROM content_appeals WHERE kind = ? AND item_id = ? AND decided_at IS NULL').bind(kind, itemId).first()) !== null;
}

/** Whether the appeal exists (decided or not). */
export async function contentAppealExists(db: D1Database, id: number): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS x FROM content_appeals WHERE id = ?').bind(id).first()) !== null;
}
