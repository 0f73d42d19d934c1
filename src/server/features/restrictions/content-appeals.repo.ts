import type { ContentAppealOutcome, ContentKind, UploadAppeal } from '../../../shared/restrictions';
import { isUniqueViolation } from '../../lib/errors';

// Appeals against a removed or refused upload (migration 0036): filed by the item's performer,
// decided by an operator (upheld, or reinstated: the item is approved again). One appeal per
// removal: none while one is open or after one was upheld; after a reinstatement the item may be
// removed again (on a new report), and that removal may be appealed.

export type { ContentKind };

const table = (kind: ContentKind) => (kind === 'video' ? 'videos' : 'galleries');

/**
 * Files an appeal for a rejected item of the show; null when the item is not this show's, not
 * rejected, or has an open or upheld appeal (the unique index refuses a parallel second one too).
 */
export async function insertContentAppeal(db: D1Database, kind: ContentKind, itemId: number, showId: number, userId: number, text: string, now: number): Promise<number | null> {
  try {
    const row = await db
      .prepare(
        `INSERT INTO content_appeals (kind, item_id, show_id, user_id, decision_reason, text, created_at)
         SELECT ?1, i.id, i.show_id, ?3, COALESCE(i.review_reason, ''), ?4, ?5 FROM ${table(kind)} i
         WHERE i.id = ?2 AND i.show_id = ?6 AND i.review = 'rejected'
           AND NOT EXISTS (SELECT 1 FROM content_appeals a WHERE a.kind = ?1 AND a.item_id = i.id AND (a.outcome IS NULL OR a.outcome = 'upheld'))
         RETURNING id`,
      )
      .bind(kind, itemId, userId, text, now, showId)
      .first<{ id: number }>();
    return row?.id ?? null;
  } catch (e) {
    if (isUniqueViolation(e)) return null;
    throw e;
  }
}

export interface OpenContentAppealRow {
  id: number;
  kind: ContentKind;
  item_id: number;
  show_id: number;
  show_name: string;
  show_slug: string;
  title_en: string;
  title_de: string;
  decision_reason: string;
  text: string;
  created_at: number;
}

export async function openContentAppeals(db: D1Database, limit: number): Promise<OpenContentAppealRow[]> {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.kind, a.item_id, a.show_id, s.name AS show_name, s.slug_name AS show_slug,
         COALESCE(v.title_en, g.title_en, '') AS title_en, COALESCE(v.title_de, g.title_de, '') AS title_de, a.decision_reason, a.text, a.created_at
       FROM content_appeals a JOIN shows s ON s.id = a.show_id
       LEFT JOIN videos v ON a.kind = 'video' AND v.id = a.item_id
       LEFT JOIN galleries g ON a.kind = 'gallery' AND g.id = a.item_id
       WHERE a.decided_at IS NULL ORDER BY a.id LIMIT ?`,
    )
    .bind(limit)
    .all<OpenContentAppealRow>();
  return results;
}

/** A decided appeal with what its mail needs: who filed it and the item's titles. */
export interface DecidedContentAppeal {
  kind: ContentKind;
  item_id: number;
  show_id: number;
  user_id: number;
  title_en: string;
  title_de: string;
}

/**
 * Decides an open appeal once. Reinstated approves the item again in the same batch; an item
 * without its record of the people in it cannot be reinstated (the appeal stays open). Null when
 * nothing was decided.
 */
export async function decideContentAppealRow(db: D1Database, id: number, outcome: ContentAppealOutcome, answer: string, by: number, now: number): Promise<DecidedContentAppeal | null> {
  const reinstate = (kind: ContentKind) =>
    db
      .prepare(
        `UPDATE ${table(kind)} SET review = 'approved', review_reason = NULL, reviewed_by = ?2, reviewed_at = ?3
         WHERE id = (SELECT item_id FROM content_appeals WHERE id = ?1 AND kind = ?4 AND outcome = 'reinstated' AND decided_at = ?3 AND decided_by = ?2) AND review = 'rejected'`,
      )
      .bind(id, by, now, kind);
  const [decided] = await db.batch<{ kind: ContentKind; item_id: number; show_id: number; user_id: number }>([
    db
      .prepare(
        `UPDATE content_appeals SET decided_at = ?2, decided_by = ?3, outcome = ?4, answer = ?5 WHERE id = ?1 AND decided_at IS NULL
           AND (?4 = 'upheld' OR EXISTS (SELECT 1 FROM item_performers ip WHERE ip.kind = content_appeals.kind AND ip.item_id = content_appeals.item_id))
         RETURNING kind, item_id, show_id, user_id`,
      )
      .bind(id, now, by, outcome, answer),
    reinstate('video'),
    reinstate('gallery'),
  ]);
  const row = decided.results[0];
  if (!row) return null;
  const titles = await db.prepare(`SELECT title_en, title_de FROM ${table(row.kind)} WHERE id = ?`).bind(row.item_id).first<{ title_en: string; title_de: string }>();
  return { ...row, title_en: titles?.title_en ?? '', title_de: titles?.title_de ?? '' };
}

/** The appeal as it stands (null: unknown), and whether its item has the people's record. */
export function contentAppealRow(db: D1Database, id: number): Promise<{ decided_at: number | null; has_record: number } | null> {
  return db
    .prepare('SELECT a.decided_at, EXISTS (SELECT 1 FROM item_performers ip WHERE ip.kind = a.kind AND ip.item_id = a.item_id) AS has_record FROM content_appeals a WHERE a.id = ?')
    .bind(id)
    .first();
}

/** The item's appeals that stop another: 'open' or 'upheld' (null: none). */
export async function blockingContentAppeal(db: D1Database, kind: ContentKind, itemId: number): Promise<'open' | 'upheld' | null> {
  const row = await db
    .prepare("SELECT outcome FROM content_appeals WHERE kind = ? AND item_id = ? AND (outcome IS NULL OR outcome = 'upheld') ORDER BY outcome IS NULL DESC LIMIT 1")
    .bind(kind, itemId)
    .first<{ outcome: string | null }>();
  return row ? (row.outcome === null ? 'open' : 'upheld') : null;
}

/** The latest appeal of each of the show's items. */
export async function latestContentAppeals(db: D1Database, showId: number): Promise<Map<string, UploadAppeal>> {
  const { results } = await db
    .prepare(
      `SELECT a.kind, a.item_id, a.outcome, a.answer, a.created_at, a.decided_at FROM content_appeals a
       WHERE a.show_id = ? AND a.id = (SELECT MAX(b.id) FROM content_appeals b WHERE b.kind = a.kind AND b.item_id = a.item_id)`,
    )
    .bind(showId)
    .all<{ kind: ContentKind; item_id: number; outcome: ContentAppealOutcome | null; answer: string | null; created_at: number; decided_at: number | null }>();
  return new Map(results.map((r) => [`${r.kind}:${r.item_id}`, { state: r.outcome ?? 'pending', answer: r.answer, created_at: r.created_at, decided_at: r.decided_at }]));
}
