import type { ReasonCategory } from '../../../shared/operator';
import type { AccountHit, AppealOutcome, AppealView, OpenAppeal, RestrictionKind, RestrictionView } from '../../../shared/restrictions';

// All SQL of bans and suspensions (migration 0028). "Active" is the same test everywhere: not
// lifted, and permanent or ending in the future (the login and visitor queries of the account
// and session features repeat it, as SQL, so that no login gets past a restriction).

const ACTIVE = 'r.lifted_at IS NULL AND (r.ends_at IS NULL OR r.ends_at > ?)';

export interface TargetRow {
  id: number;
  name: string;
  email: string;
  locale: string;
  created_at: number;
  is_operator: number;
  show_id: number | null;
  show_name: string | null;
}

/** An account an operator acts on (not cancelled), with its operator flag and performer show. */
export function targetRow(db: D1Database, userId: number): Promise<TargetRow | null> {
  return db
    .prepare(
      `SELECT u.id, u.name, u.email, u.locale, u.created_at, EXISTS (SELECT 1 FROM operators o WHERE o.user_id = u.id) AS is_operator,
         s.id AS show_id, s.name AS show_name
       FROM users u LEFT JOIN performers p ON p.user_id = u.id LEFT JOIN shows s ON s.id = p.show_id
       WHERE u.id = ? AND u.cancelled_at IS NULL`,
    )
    .bind(userId)
    .first<TargetRow>();
}

export interface NewRestriction {
  userId: number;
  kind: RestrictionKind;
  category: ReasonCategory;
  reason: string;
  by: number;
  endsAt: number | null;
  statementHash: string;
}

/** A new restriction unless the account has an active one (one statement: parallel requests make one); its id, or null. */
export async function insertRestriction(db: D1Database, r: NewRestriction, now: number): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO restrictions (user_id, kind, reason_category, reason, created_by, created_at, ends_at, statement_hash)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE NOT EXISTS (SELECT 1 FROM restrictions r WHERE r.user_id = ?1 AND r.lifted_at IS NULL AND (r.ends_at IS NULL OR r.ends_at > ?6))
       RETURNING id`,
    )
    .bind(r.userId, r.kind, r.category, r.reason, r.by, now, r.endsAt, r.statementHash)
    .first<{ id: number }>();
  return row?.id ?? null;
}

export interface RestrictionRow {
  id: number;
  user_id: number;
  kind: RestrictionKind;
  reason_category: ReasonCategory;
  reason: string;
  created_by: number;
  created_at: number;
  ends_at: number | null;
  lifted_at: number | null;
  lift_reason: string | null;
}

const COLUMNS = 'r.id, r.user_id, r.kind, r.reason_category, r.reason, r.created_by, r.created_at, r.ends_at, r.lifted_at, r.lift_reason';

export function restrictionRow(db: D1Database, id: number): Promise<RestrictionRow | null> {
  return db.prepare(`SELECT ${COLUMNS} FROM restrictions r WHERE r.id = ?`).bind(id).first<RestrictionRow>();
}

export function restrictionByStatement(db: D1Database, hash: string): Promise<RestrictionRow | null> {
  return db.prepare(`SELECT ${COLUMNS} FROM restrictions r WHERE r.statement_hash = ?`).bind(hash).first<RestrictionRow>();
}

/**
 * Lifts an active restriction and decides its open appeal (if any) as lifted with the same
 * reason; false when it is not active (lifted already, or over).
 */
export async function liftRestriction(db: D1Database, id: number, by: number, reason: string, now: number): Promise<boolean> {
  const [lifted] = await db.batch([
    db.prepare(`UPDATE restrictions AS r SET lifted_at = ?1, lifted_by = ?2, lift_reason = ?3 WHERE r.id = ?4 AND ${ACTIVE.replace('?', '?1')}`).bind(now, by, reason, id),
    db
      .prepare(
        `UPDATE appeals SET decided_at = ?1, decided_by = ?2, outcome = 'lifted', answer = ?3
         WHERE restriction_id = ?4 AND decided_at IS NULL AND EXISTS (SELECT 1 FROM restrictions WHERE id = ?4 AND lifted_at = ?1 AND lifted_by = ?2)`,
      )
      .bind(now, by, reason, id),
  ]);
  return lifted.meta.changes === 1;
}

/** Decides an open appeal; lifted: its restriction too (if still active). Null when it was decided already. */
export async function decideAppealRow(
  db: D1Database,
  id: number,
  by: number,
  outcome: AppealOutcome,
  answer: string,
  now: number,
): Promise<{ restriction_id: number; user_id: number } | null> {
  const [decided] = await db.batch<{ restriction_id: number; user_id: number }>([
    db.prepare('UPDATE appeals SET decided_at = ?, decided_by = ?, outcome = ?, answer = ? WHERE id = ? AND decided_at IS NULL RETURNING restriction_id, user_id').bind(now, by, outcome, answer, id),
    db
      .prepare(
        `UPDATE restrictions AS r SET lifted_at = ?1, lifted_by = ?2, lift_reason = ?3
         WHERE r.id = (SELECT restriction_id FROM appeals WHERE id = ?4 AND outcome = 'lifted' AND decided_at = ?1 AND decided_by = ?2) AND r.lifted_at IS NULL`,
      )
      .bind(now, by, answer, id),
  ]);
  return decided.results[0] ?? null;
}

/** An appeal against an active restriction; null when it is not active. Throws a UNIQUE violation when one is open. */
export async function insertAppeal(db: D1Database, restrictionId: number, text: string, now: number): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO appeals (restriction_id, user_id, text, created_at)
       SELECT r.id, r.user_id, ?2, ?3 FROM restrictions r WHERE r.id = ?1 AND r.lifted_at IS NULL AND (r.ends_at IS NULL OR r.ends_at > ?3)
       RETURNING id`,
    )
    .bind(restrictionId, text, now)
    .first<{ id: number }>();
  return row?.id ?? null;
}

export function appealRow(db: D1Database, id: number): Promise<{ id: number; restriction_id: number; user_id: number; decided_at: number | null } | null> {
  return db.prepare('SELECT id, restriction_id, user_id, decided_at FROM appeals WHERE id = ?').bind(id).first();
}

/** The account's restrictions, newest first, each with its appeals and who made it. */
export async function restrictionsOf(db: D1Database, userId: number, now: number): Promise<(RestrictionView & { created_by: string | null })[]> {
  const [rs, as] = await db.batch<(RestrictionRow & { creator: string | null; active: number }) | (AppealView & { restriction_id: number })>([
    db.prepare(`SELECT ${COLUMNS}, u.name AS creator, (${ACTIVE}) AS active FROM restrictions r LEFT JOIN users u ON u.id = r.created_by WHERE r.user_id = ? ORDER BY r.id DESC`).bind(now, userId),
    db.prepare('SELECT a.id, a.restriction_id, a.text, a.created_at, a.decided_at, a.outcome, a.answer FROM appeals a WHERE a.user_id = ? ORDER BY a.id').bind(userId),
  ]);
  const appeals = as.results as (AppealView & { restriction_id: number })[];
  return (rs.results as (RestrictionRow & { creator: string | null; active: number })[]).map((r) => ({
    id: r.id,
    kind: r.kind,
    reason_category: r.reason_category,
    reason: r.reason,
    created_at: r.created_at,
    ends_at: r.ends_at,
    lifted_at: r.lifted_at,
    lift_reason: r.lift_reason,
    active: r.active === 1,
    created_by: r.creator,
    appeals: appeals.filter((a) => a.restriction_id === r.id).map(({ restriction_id: _, ...a }) => a),
  }));
}

/** The open appeals, oldest first. */
export async function openAppeals(db: D1Database, limit: number): Promise<OpenAppeal[]> {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.text, a.created_at, u.id AS user_id, u.name AS user_name, r.id AS r_id, r.kind, r.reason_category, r.reason, r.created_at AS r_created_at, r.ends_at
       FROM appeals a JOIN restrictions r ON r.id = a.restriction_id JOIN users u ON u.id = a.user_id
       WHERE a.decided_at IS NULL ORDER BY a.id LIMIT ?`,
    )
    .bind(limit)
    .all<{ id: number; text: string; created_at: number; user_id: number; user_name: string; r_id: number; kind: RestrictionKind; reason_category: ReasonCategory; reason: string; r_created_at: number; ends_at: number | null }>();
  return results.map((a) => ({
    id: a.id,
    text: a.text,
    created_at: a.created_at,
    user: { id: a.user_id, name: a.user_name },
    restriction: { id: a.r_id, kind: a.kind, reason_category: a.reason_category, reason: a.reason, created_at: a.r_created_at, ends_at: a.ends_at },
  }));
}

/** Accounts by id, or by the start of their name or address (LIKE, case-insensitive). */
export async function searchAccounts(db: D1Database, q: string, now: number, limit: number): Promise<AccountHit[]> {
  const id = /^\d{1,12}$/.test(q) ? Number(q) : -1;
  const like = `${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const { results } = await db
    .prepare(
      `SELECT u.id, u.name, u.email, EXISTS (SELECT 1 FROM restrictions r WHERE r.user_id = u.id AND ${ACTIVE.replace('?', '?4')}) AS restricted
       FROM users u WHERE u.cancelled_at IS NULL AND (u.id = ?1 OR u.name LIKE ?2 ESCAPE '\\' OR u.email LIKE ?2 ESCAPE '\\')
       ORDER BY u.id = ?1 DESC, u.name LIMIT ?3`,
    )
    .bind(id, like, limit, now)
    .all<{ id: number; name: string; email: string; restricted: number }>();
  return results.map((r) => ({ ...r, restricted: r.restricted === 1 }));
}
