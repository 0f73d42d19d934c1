import type { ReportCategory, ReportOutcome, ReportTarget } from '../../../shared/reports';

// All SQL of reports (migration 0030): what a reported target is (its show, the account behind it,
// its title or text for the snapshot), the reports themselves and the operators' queue.

/** A reported target as found: its show, the account behind it and what the snapshot keeps. */
export interface TargetFound {
  show_id: number | null;
  accused_user_id: number | null;
  title?: string;
  text?: string;
}

export async function showTarget(db: D1Database, showId: number): Promise<TargetFound | null> {
  const row = await db
    .prepare('SELECT s.id, s.name, p.user_id FROM shows s LEFT JOIN performers p ON p.show_id = s.id WHERE s.id = ?')
    .bind(showId)
    .first<{ id: number; name: string; user_id: number | null }>();
  return row ? { show_id: row.id, accused_user_id: row.user_id, title: row.name } : null;
}

/** A video anyone may see (published and approved). */
export async function videoTarget(db: D1Database, id: number, locale: string): Promise<TargetFound | null> {
  const row = await db
    .prepare("SELECT v.show_id, v.title_en, v.title_de, p.user_id FROM videos v LEFT JOIN performers p ON p.show_id = v.show_id WHERE v.id = ? AND v.status = 'published' AND v.review = 'approved'")
    .bind(id)
    .first<{ show_id: number; title_en: string; title_de: string; user_id: number | null }>();
  return row ? { show_id: row.show_id, accused_user_id: row.user_id, title: locale === 'de' ? row.title_de : row.title_en } : null;
}

/** A gallery, or one of its pictures when `idx` is given (published and approved: what anyone may see). */
export async function pictureTarget(db: D1Database, galleryId: number, idx: number | null, locale: string): Promise<TargetFound | null> {
  const row = await db
    .prepare(
      `SELECT g.show_id, g.title_en, g.title_de, p.user_id FROM galleries g LEFT JOIN performers p ON p.show_id = g.show_id
       WHERE g.id = ?1 AND g.status = 'published' AND g.review = 'approved' AND (?2 IS NULL OR EXISTS (SELECT 1 FROM gallery_pictures gp WHERE gp.gallery_id = g.id AND gp.idx = ?2))`,
    )
    .bind(galleryId, idx)
    .first<{ show_id: number; title_en: string; title_de: string; user_id: number | null }>();
  return row ? { show_id: row.show_id, accused_user_id: row.user_id, title: locale === 'de' ? row.title_de : row.title_en } : null;
}

/** A message of the member's own conversation (a member reads only their own); the sender is the show's performer or an operator. */
export async function messageTarget(db: D1Database, id: number, memberId: number): Promise<TargetFound | null> {
  const row = await db
    .prepare(
      `SELECT m.show_id, m.body, m.author, m.author_user_id, p.user_id AS performer FROM messages m LEFT JOIN performers p ON p.show_id = m.show_id
       WHERE m.id = ? AND m.user_id = ? AND m.deleted_member = 0`,
    )
    .bind(id, memberId)
    .first<{ show_id: number; body: string; author: string; author_user_id: number | null; performer: number | null }>();
  if (!row) return null;
  const accused = row.author === 'member' ? memberId : row.author === 'support' ? row.author_user_id : (row.author_user_id ?? row.performer);
  return { show_id: row.show_id, accused_user_id: accused, text: row.body };
}

/** The performer of a show (a chat line of the performer). */
export async function performerOf(db: D1Database, showId: number): Promise<number | null> {
  const row = await db.prepare('SELECT user_id FROM performers WHERE show_id = ?').bind(showId).first<{ user_id: number }>();
  return row?.user_id ?? null;
}

export interface NewReport {
  reporterUserId: number | null;
  reporterKey: string;
  email: string | null;
  locale: string;
  kind: ReportTarget;
  targetId: string;
  showId: number | null;
  accusedUserId: number | null;
  category: ReportCategory;
  text: string;
  snapshot: string;
}

/** Inserts a report (throws a UNIQUE violation when the reporter has an open one on the target). */
export async function insertReport(db: D1Database, r: NewReport, now: number): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO reports (reporter_user_id, reporter_key, reporter_email, locale, target_kind, target_id, show_id, accused_user_id, category, text, snapshot, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(r.reporterUserId, r.reporterKey, r.email, r.locale, r.kind, r.targetId, r.showId, r.accusedUserId, r.category, r.text, r.snapshot, now)
    .first<{ id: number }>();
  return row!.id;
}

export interface ReportRow {
  id: number;
  reporter_user_id: number | null;
  reporter_email: string | null;
  locale: string;
  target_kind: ReportTarget;
  target_id: string;
  show_id: number | null;
  accused_user_id: number | null;
  category: ReportCategory;
  text: string;
  snapshot: string;
  created_at: number;
  state: 'open' | 'resolved';
  outcome: ReportOutcome | null;
  outcome_text: string | null;
}

const COLUMNS = `r.id, r.reporter_user_id, COALESCE(r.reporter_email, u.email) AS reporter_email, COALESCE(u.locale, r.locale) AS locale, r.target_kind,
  r.target_id, r.show_id, r.accused_user_id, r.category, r.text, r.snapshot, r.created_at, r.state, r.outcome, r.outcome_text`;

/** The open reports, oldest first. */
export async function openReports(db: D1Database, limit: number): Promise<ReportRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM reports r LEFT JOIN users u ON u.id = r.reporter_user_id WHERE r.state = 'open' ORDER BY r.created_at, r.id LIMIT ?`)
    .bind(limit)
    .all<ReportRow>();
  return results;
}

/** The resolved reports, newest decision first. */
export async function resolvedReports(db: D1Database, limit: number): Promise<ReportRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM reports r LEFT JOIN users u ON u.id = r.reporter_user_id WHERE r.state = 'resolved' ORDER BY r.resolved_at DESC, r.id DESC LIMIT ?`)
    .bind(limit)
    .all<ReportRow>();
  return results;
}

export function reportRow(db: D1Database, id: number): Promise<ReportRow | null> {
  return db.prepare(`SELECT ${COLUMNS} FROM reports r LEFT JOIN users u ON u.id = r.reporter_user_id WHERE r.id = ?`).bind(id).first<ReportRow>();
}

/** Resolves an open report; false when it was resolved already (also by a parallel request). */
export async function resolveReportRow(db: D1Database, id: number, by: number, outcome: ReportOutcome, text: string, now: number): Promise<boolean> {
  const res = await db
    .prepare(`UPDATE reports SET state = 'resolved', resolved_at = ?, resolved_by = ?, outcome = ?, outcome_text = ? WHERE id = ? AND state = 'open'`)
    .bind(now, by, outcome, text, id)
    .run();
  return (res.meta.changes ?? 0) > 0;
}
