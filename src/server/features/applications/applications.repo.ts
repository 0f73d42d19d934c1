import type { ApplicationFields, ApplicationState } from '../../../shared/applications';

// All SQL of performer applications (migration 0032).

export interface ApplicationRow {
  id: number;
  user_id: number;
  user_name: string;
  user_email: string;
  user_locale: string;
  legal_name: string;
  date_of_birth: string;
  country: string;
  stage_name: string;
  id_document_key: string;
  selfie_key: string;
  state: ApplicationState;
  reason: string | null;
  decided_at: number | null;
  show_id: number | null;
  join_show_id: number | null;
  join_show_name: string | null;
  documents_deleted_at: number | null;
  created_at: number;
}

const SELECT = `SELECT a.id, a.user_id, u.name AS user_name, u.email AS user_email, u.locale AS user_locale, a.legal_name, a.date_of_birth,
  a.country, a.stage_name, a.id_document_key, a.selfie_key, a.state, a.reason, a.decided_at, a.show_id, a.join_show_id, js.name AS join_show_name, a.documents_deleted_at, a.created_at
  FROM applications a JOIN users u ON u.id = a.user_id LEFT JOIN shows js ON js.id = a.join_show_id`;

export async function applicationById(db: D1Database, id: number): Promise<ApplicationRow | null> {
  return db.prepare(`${SELECT} WHERE a.id = ?1`).bind(id).first<ApplicationRow>();
}

export async function latestOf(db: D1Database, userId: number): Promise<ApplicationRow | null> {
  return db.prepare(`${SELECT} WHERE a.user_id = ?1 ORDER BY a.id DESC LIMIT 1`).bind(userId).first<ApplicationRow>();
}

export async function queue(db: D1Database, state: ApplicationState, limit = 100): Promise<ApplicationRow[]> {
  return (await db.prepare(`${SELECT} WHERE a.state = ?1 ORDER BY a.created_at, a.id LIMIT ?2`).bind(state, limit).all<ApplicationRow>()).results;
}

/** Whether a show or an open application already has this stage name (or the slug it makes). */
export async function stageNameTaken(db: D1Database, name: string, slug: string): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS taken WHERE EXISTS (SELECT 1 FROM shows WHERE lower(name) = lower(?1) OR lower(slug_name) = ?2)
        OR EXISTS (SELECT 1 FROM applications WHERE state = 'submitted' AND lower(stage_name) = lower(?1))`,
    )
    .bind(name, slug)
    .first<{ taken: number }>();
  return row !== null;
}

/** Whether a show already has this name or slug (checked again when an application is approved). */
export async function showNameTaken(db: D1Database, name: string, slug: string): Promise<boolean> {
  return (await db.prepare(`SELECT 1 AS x FROM shows WHERE lower(name) = lower(?1) OR lower(slug_name) = ?2 LIMIT 1`).bind(name, slug).first()) !== null;
}

export async function hasOpen(db: D1Database, userId: number): Promise<boolean> {
  return (await db.prepare(`SELECT 1 AS x FROM applications WHERE user_id = ?1 AND state = 'submitted'`).bind(userId).first()) !== null;
}

export async function insertApplication(db: D1Database, userId: number, f: ApplicationFields, keys: { id: string; selfie: string }, now: number): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO applications (user_id, legal_name, date_of_birth, country, stage_name, id_document_key, selfie_key, consent_at, created_at, join_show_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9) RETURNING id`,
    )
    .bind(userId, f.legal_name, f.date_of_birth, f.country, f.stage_name, keys.id, keys.selfie, now, f.join_show)
    .first<{ id: number }>();
  return row!.id;
}

export interface NewShow {
  universalId: string;
  name: string;
  slug: string;
  age: number;
  country: string;
  pricePerMinute: number;
  priceFactorExclusive: number;
  sloganEn: string;
  sloganDe: string;
  descriptionEn: string;
  descriptionDe: string;
}

/**
 * Approves a submitted application in one batch: the show (offline), the performers row of the
 * applicant, the decision and the applicant as the show's verified person. Each statement runs only while the application is still submitted,
 * so of two parallel approvals one makes the show; false when it was decided already.
 */
export async function approve(db: D1Database, id: number, userId: number, operatorId: number, reason: string, s: NewShow, now: number): Promise<boolean> {
  const open = `EXISTS (SELECT 1 FROM applications WHERE id = ?1 AND state = 'submitted')`;
  const results = await db.batch([
    db
      .prepare(
        `INSERT INTO shows (universal_id, name, slug_name, age, languages, city, country, lat, lon, price_per_minute, price_factor_exclusive,
           slogan_en, slogan_de, description_en, description_de, flag_free, online, created_at)
         SELECT ?2, ?3, ?4, ?5, 'en', '', ?6, 0, 0, ?7, ?8, ?9, ?10, ?11, ?12, 1, 0, ?13 WHERE ${open}`,
      )
      .bind(id, s.universalId, s.name, s.slug, s.age, s.country, s.pricePerMinute, s.priceFactorExclusive, s.sloganEn, s.sloganDe, s.descriptionEn, s.descriptionDe, now),
    db.prepare(`INSERT INTO performers (user_id, show_id, created_at) SELECT ?2, s.id, ?4 FROM shows s WHERE s.universal_id = ?3 AND ${open}`).bind(id, userId, s.universalId, now),
    db
      .prepare(
        `UPDATE applications SET state = 'approved', reason = ?2, decided_by = ?3, decided_at = ?4, show_id = (SELECT id FROM shows WHERE universal_id = ?5)
         WHERE id = ?1 AND state = 'submitted'`,
      )
      .bind(id, reason, operatorId, now, s.universalId),
    // The applicant is the show's first verified person (migration 0033).
    db.prepare(`INSERT OR IGNORE INTO show_performers (show_id, application_id, added_at, added_by) SELECT show_id, id, ?2, ?3 FROM applications WHERE id = ?1 AND state = 'approved'`).bind(id, now, operatorId),
  ]);
  return (results[2].meta.changes ?? 0) === 1;
}

/** Rejects or sends back a submitted application; its documents are due for deletion at `deleteAfter`. */
export async function close(db: D1Database, id: number, state: 'rejected' | 'more_info', operatorId: number, reason: string, now: number, deleteAfter: number): Promise<boolean> {
  const r = await db
    .prepare(`UPDATE applications SET state = ?2, reason = ?3, decided_by = ?4, decided_at = ?5, delete_after = ?6 WHERE id = ?1 AND state = 'submitted'`)
    .bind(id, state, reason, operatorId, now, deleteAfter)
    .run();
  return (r.meta.changes ?? 0) === 1;
}

export async function dueDocuments(db: D1Database, now: number, limit = 50): Promise<{ id: number; id_document_key: string; selfie_key: string }[]> {
  return (
    await db
      .prepare(`SELECT id, id_document_key, selfie_key FROM applications WHERE delete_after IS NOT NULL AND delete_after <= ?1 AND documents_deleted_at IS NULL ORDER BY delete_after LIMIT ?2`)
      .bind(now, limit)
      .all<{ id: number; id_document_key: string; selfie_key: string }>()
  ).results;
}

export async function markDeleted(db: D1Database, ids: number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.batch(ids.map((id) => db.prepare(`UPDATE applications SET documents_deleted_at = ?2 WHERE id = ?1`).bind(id, now)));
}

export async function custodian(db: D1Database): Promise<{ name: string; address: string } | null> {
  return db.prepare(`SELECT name, address FROM records_custodian WHERE id = 1`).first<{ name: string; address: string }>();
}
