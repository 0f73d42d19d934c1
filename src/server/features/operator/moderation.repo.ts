import type { ModerationItem, ModerationKind } from '../../../shared/moderation';
import { mediaUrl } from '../../../shared/store';
import { clipHref, picturesHref } from '../../../shared/store-links';
import type { ReviewState } from '../../../shared/uploads';

// All SQL of the operators' review of uploads (issue 29 point 2, migration 0031): the queue of
// complete uploads waiting (oldest first) and a decision, written once.

export interface QueueRow {
  kind: ModerationKind;
  id: number;
  show_id: number;
  show_name: string;
  show_slug: string;
  title_en: string;
  title_de: string;
  price: number;
  created_at: number;
}

/** The queue's row with where an operator opens it (the media and item routes let operators see unapproved items). */
export function toModerationItem(r: QueueRow): ModerationItem {
  const video = r.kind === 'video';
  return {
    kind: r.kind,
    id: r.id,
    show_id: r.show_id,
    show_name: r.show_name,
    title_en: r.title_en,
    title_de: r.title_de,
    price: r.price,
    created_at: r.created_at,
    preview_url: video ? mediaUrl.preview(r.id, 1) : mediaUrl.picture(r.id, 1, 'thumb'),
    page_url: video ? clipHref({ id: r.id, show_id: r.show_id, showSlug: r.show_slug }) : picturesHref({ id: r.id, showId: r.show_id, showSlug: r.show_slug }),
  };
}

const QUEUE_MAX = 200;

/** Complete uploads (files there) whose review is pending, oldest first. */
export async function reviewQueue(db: D1Database): Promise<QueueRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM (
         SELECT 'video' AS kind, m.id, m.show_id, s.name AS show_name, s.slug_name AS show_slug, m.title_en, m.title_de, m.price, m.created_at
           FROM videos m JOIN shows s ON s.id = m.show_id WHERE m.review = 'pending' AND m.status = 'published'
         UNION ALL
         SELECT 'gallery', m.id, m.show_id, s.name, s.slug_name, m.title_en, m.title_de, m.price, m.created_at
           FROM galleries m JOIN shows s ON s.id = m.show_id WHERE m.review = 'pending' AND m.status = 'published'
       ) ORDER BY created_at, kind, id LIMIT ?`,
    )
    .bind(QUEUE_MAX)
    .all<QueueRow>();
  return results;
}

export interface Decided {
  show_id: number;
  title_en: string;
  title_de: string;
}

/**
 * Decides a complete upload's pending review: approved (the store lists it from now) or rejected
 * with the reason its performer reads. Null when there is no such item waiting (unknown, not
 * complete, or decided already: a second decision changes nothing; or, for an approval, without
 * a record of the people it depicts).
 */
export function decideReview(db: D1Database, kind: ModerationKind, id: number, review: Exclude<ReviewState, 'pending'>, reason: string | null, by: number, now: number): Promise<Decided | null> {
  const table = kind === 'video' ? 'videos' : 'galleries';
  // An approval needs the 2257 records: at least one verified person the item depicts (migration 0033).
  const records = review === 'approved' ? `AND EXISTS (SELECT 1 FROM item_performers WHERE kind = ?6 AND item_id = ?1)` : `AND ?6 IS NOT NULL`;
  return db
    .prepare(
      `UPDATE ${table} SET review = ?2, review_reason = ?3, reviewed_by = ?4, reviewed_at = ?5
       WHERE id = ?1 AND review = 'pending' AND status = 'published' ${records} RETURNING show_id, title_en, title_de`,
    )
    .bind(id, review, reason, by, now, kind)
    .first<Decided>();
}

/** The studio login of a show (its performer): where a decision on the show's upload is mailed. */
export function showPerformerContact(db: D1Database, showId: number): Promise<{ email: string; name: string; locale: string } | null> {
  return db
    .prepare('SELECT u.email, u.name, u.locale FROM performers p JOIN users u ON u.id = p.user_id WHERE p.show_id = ?')
    .bind(showId)
    .first<{ email: string; name: string; locale: string }>();
}

/**
 * Takes an approved item out of the store on a report (resolved as removed): rejected with the
 * operator's reason, as if moderation had refused it. Null when it is not in the store (any more).
 */
export function takeDown(db: D1Database, kind: ModerationKind, id: number, reason: string, by: number, now: number): Promise<Decided | null> {
  const table = kind === 'video' ? 'videos' : 'galleries';
  return db
    .prepare(`UPDATE ${table} SET review = 'rejected', review_reason = ?2, reviewed_by = ?3, reviewed_at = ?4 WHERE id = ?1 AND review = 'approved' RETURNING show_id, title_en, title_de`)
    .bind(id, reason, by, now)
    .first<Decided>();
}

/** A reported message leaves the member's conversation (as if they had deleted it). */
export async function hideMessage(db: D1Database, id: number): Promise<void> {
  await db.prepare('UPDATE messages SET deleted_member = 1 WHERE id = ?').bind(id).run();
}

/** Whether a complete upload waits for review without any record of the people it depicts. */
export async function pendingWithoutRecords(db: D1Database, kind: ModerationKind, id: number): Promise<boolean> {
  const table = kind === 'video' ? 'videos' : 'galleries';
  const row = await db
    .prepare(`SELECT 1 AS x FROM ${table} WHERE id = ?1 AND review = 'pending' AND status = 'published' AND NOT EXISTS (SELECT 1 FROM item_performers WHERE kind = ?2 AND item_id = ?1)`)
    .bind(id, kind)
    .first();
  return row !== null;
}
