import { flags, pick } from '../../../shared/pick';
import type { Nickname, User } from '../../../shared/session';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  coins: number;
  is_verified: number;
  age_verified: number;
  newsletter: number;
  blocked: number;
  locale: string;
  created_at: number;
  current_nickname_id: number | null;
  cancelled_at: number | null;
  google_sub: string | null;
  verify_sent_at: number | null;
  /** When the welcome dialog for new members was shown (once per member, not per session). */
  welcome_shown_at: number | null;
  /** Joined from performers where the query asks for it (see USER_WITH_PERFORMER). */
  performer_show?: number | null;
  /** The login of the auth token that found the member (its session id at login), where the query asks for it. */
  login_id?: string | null;
  /** The request's login only (the visitor query): its member is an operator, and when that login gave the second factor. */
  is_operator?: number;
  second_factor_at?: number | null;
}

/** A user row with the show the member performs in (null for most). */
export const USER_WITH_PERFORMER = 'u.*, (SELECT p.show_id FROM performers p WHERE p.user_id = u.id) AS performer_show';

export function toWireUser(u: UserRow, nicknames: Nickname[]): User {
  return {
    ...pick(u, ['id', 'name', 'email', 'coins']),
    ...flags(u, ['is_verified', 'age_verified', 'newsletter']),
    nicknames: { data: nicknames, current_nickname: u.current_nickname_id },
    performer_show: u.performer_show ?? null,
  };
}

export function findUserById(db: D1Database, id: number) {
  return db.prepare('SELECT * FROM users WHERE id = ? AND cancelled_at IS NULL').bind(id).first<UserRow>();
}

/** By username or e-mail, case-insensitively (both columns are NOCASE). */
export function findUserByLogin(db: D1Database, login: string) {
  return db.prepare('SELECT * FROM users WHERE (name = ?1 OR email = ?1) AND cancelled_at IS NULL').bind(login).first<UserRow>();
}

export function findUserByEmail(db: D1Database, email: string) {
  return db.prepare('SELECT * FROM users WHERE email = ?').bind(email).first<UserRow>();
}

export async function wireUser(db: D1Database, id: number): Promise<User | null> {
  const [user, nicks] = await db.batch([
    db.prepare(`SELECT ${USER_WITH_PERFORMER} FROM users u WHERE u.id = ? AND u.cancelled_at IS NULL`).bind(id),
    db.prepare('SELECT id, nickname FROM nicknames WHERE user_id = ? ORDER BY id').bind(id),
  ]);
  const row = user.results[0] as UserRow | undefined;
  return row ? toWireUser(row, nicks.results as Nickname[]) : null;
}

export async function createUser(
  db: D1Database,
  fields: { name: string; email: string; passwordHash: string; locale: string; verified?: boolean; googleSub?: string | null; now: number },
): Promise<UserRow> {
  const row = await db
    .prepare(
      `INSERT INTO users (name, email, password_hash, locale, is_verified, google_sub, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .bind(fields.name, fields.email, fields.passwordHash, fields.locale, fields.verified ? 1 : 0, fields.googleSub ?? null, fields.now)
    .first<UserRow>();
  if (!row) throw new Error('user insert returned nothing');
  return row;
}

export function nameTaken(db: D1Database, name: string) {
  return db.prepare('SELECT 1 AS x FROM users WHERE name = ? UNION SELECT 1 FROM nicknames WHERE nickname = ?').bind(name, name).first();
}

/**
 * Adds a nickname when the member has fewer than `limit` and nobody else uses the name as a
 * nickname or username (both compared case-insensitively: the columns are NOCASE, and names are
 * Latin letters, digits and ._- only). Returns the new id, or null when nothing was added.
 */
export async function insertNickname(db: D1Database, userId: number, nickname: string, limit: number, now: number): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO nicknames (user_id, nickname, created_at)
       SELECT ?1, ?2, ?3
       WHERE (SELECT COUNT(*) FROM nicknames WHERE user_id = ?1) < ?4
         AND NOT EXISTS (SELECT 1 FROM users WHERE name = ?2 AND id <> ?1)
       ON CONFLICT (nickname) DO NOTHING
       RETURNING id`,
    )
    .bind(userId, nickname, now, limit)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/**
 * What a login needs to know beyond the password: blocked, an active ban or suspension (migration
 * 0028: not lifted, permanent or ending later; its kind and end), and whether the member was welcomed.
 */
export function loginState(db: D1Database, userId: number, now: number) {
  return db
    .prepare(
      `SELECT u.blocked, u.welcome_shown_at, r.kind AS restriction, r.ends_at AS restricted_until FROM users u
       LEFT JOIN restrictions r ON r.id = (SELECT id FROM restrictions WHERE user_id = u.id AND lifted_at IS NULL AND (ends_at IS NULL OR ends_at > ?) ORDER BY ends_at IS NULL DESC, ends_at DESC LIMIT 1)
       WHERE u.id = ?`,
    )
    .bind(now, userId)
    .first<{ blocked: number; welcome_shown_at: number | null; restriction: 'suspension' | 'ban' | null; restricted_until: number | null }>();
}

export function findUserByGoogleSub(db: D1Database, sub: string) {
  return db.prepare('SELECT id, blocked FROM users WHERE google_sub = ? AND cancelled_at IS NULL').bind(sub).first<{ id: number; blocked: number }>();
}

/** Links a Google identity; a verified Google address verifies the account's. */
export async function linkGoogle(db: D1Database, userId: number, sub: string, emailVerified: boolean): Promise<void> {
  await db.prepare('UPDATE users SET google_sub = ?, is_verified = MAX(is_verified, ?) WHERE id = ?').bind(sub, emailVerified ? 1 : 0, userId).run();
}

export async function markVerified(db: D1Database, userId: number): Promise<void> {
  await db.prepare('UPDATE users SET is_verified = 1 WHERE id = ?').bind(userId).run();
}

export async function markVerifySent(db: D1Database, userId: number, now: number): Promise<void> {
  await db.prepare('UPDATE users SET verify_sent_at = ? WHERE id = ?').bind(now, userId).run();
}

export async function setNewsletter(db: D1Database, userId: number, on: boolean): Promise<void> {
  await db.prepare('UPDATE users SET newsletter = ? WHERE id = ?').bind(on ? 1 : 0, userId).run();
}

export const setLocaleStatement = (db: D1Database, userId: number, locale: string) => db.prepare('UPDATE users SET locale = ? WHERE id = ?').bind(locale, userId);
export const setPasswordStatement = (db: D1Database, userId: number, hash: string) => db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').bind(hash, userId);
/** A new address is unverified until its link is followed. */
export const setEmailStatement = (db: D1Database, userId: number, email: string) => db.prepare('UPDATE users SET email = ?, is_verified = 0 WHERE id = ?').bind(email, userId);
/** A reset proves the address: the password is set and the account verified. */
export const resetPasswordStatement = (db: D1Database, userId: number, hash: string) =>
  db.prepare('UPDATE users SET password_hash = ?, is_verified = 1 WHERE id = ?').bind(hash, userId);

export async function emailTakenByOther(db: D1Database, email: string, userId: number): Promise<boolean> {
  return !!(await db.prepare('SELECT 1 AS x FROM users WHERE email = ? AND id <> ?').bind(email, userId).first());
}

export async function countNicknames(db: D1Database, userId: number): Promise<number> {
  return (await db.prepare('SELECT COUNT(*) AS n FROM nicknames WHERE user_id = ?').bind(userId).first<{ n: number }>())?.n ?? 0;
}

/** Makes one of the member's own nicknames current; false when it is not theirs. */
export async function activateNickname(db: D1Database, userId: number, nicknameId: number): Promise<boolean> {
  const res = await db
    .prepare('UPDATE users SET current_nickname_id = ?1 WHERE id = ?2 AND EXISTS (SELECT 1 FROM nicknames WHERE id = ?1 AND user_id = ?2)')
    .bind(nicknameId, userId)
    .run();
  return res.meta.changes > 0;
}

/**
 * Deletes one of the member's nicknames in one transaction. users.current_nickname_id references
 * nicknames (enforced), so a current nickname is first replaced by the oldest remaining one.
 */
export async function removeNickname(db: D1Database, userId: number, nicknameId: number): Promise<boolean> {
  const [, removed] = await db.batch([
    db
      .prepare(
        `UPDATE users SET current_nickname_id = (SELECT id FROM nicknames WHERE user_id = ?1 AND id <> ?2 ORDER BY id LIMIT 1)
         WHERE id = ?1 AND current_nickname_id = ?2`,
      )
      .bind(userId, nicknameId),
    db.prepare('DELETE FROM nicknames WHERE id = ? AND user_id = ? RETURNING id').bind(nicknameId, userId),
  ]);
  return removed.results.length > 0;
}

/**
 * Erases the member's personal data; the row stays (anonymised) for the ledger and purchases.
 * The user row first: it drops current_nickname_id, which references the nicknames deleted next.
 */
export async function cancelAccount(db: D1Database, userId: number, now: number): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE users SET name = 'deleted-' || id, email = 'deleted-' || id || '@invalid', password_hash = '!', newsletter = 0,
         google_sub = NULL, current_nickname_id = NULL, geo_country = NULL, geo_region = NULL, geo_at = NULL, cancelled_at = ? WHERE id = ?`,
      )
      .bind(now, userId),
    db.prepare('DELETE FROM nicknames WHERE user_id = ?').bind(userId),
    db.prepare('DELETE FROM user_tokens WHERE user_id = ?').bind(userId),
    db.prepare('DELETE FROM auth_tokens WHERE user_id = ?').bind(userId),
  ]);
}

export async function insertUserLog(db: D1Database, userId: number | null, version: string, errors: unknown, now: number): Promise<void> {
  await db.prepare('INSERT INTO user_logs (user_id, version, errors, created_at) VALUES (?, ?, ?, ?)').bind(userId, version, JSON.stringify(errors), now).run();
}
