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
}

export function toWireUser(u: UserRow, nicknames: Nickname[]): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    coins: u.coins,
    is_verified: u.is_verified === 1,
    age_verified: u.age_verified === 1,
    newsletter: u.newsletter === 1,
    nicknames: { data: nicknames, current_nickname: u.current_nickname_id },
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

export async function listNicknames(db: D1Database, userId: number): Promise<Nickname[]> {
  const { results } = await db.prepare('SELECT id, nickname FROM nicknames WHERE user_id = ? ORDER BY id').bind(userId).all<Nickname>();
  return results;
}

export async function wireUser(db: D1Database, id: number): Promise<User | null> {
  const [user, nicks] = await db.batch([
    db.prepare('SELECT * FROM users WHERE id = ? AND cancelled_at IS NULL').bind(id),
    db.prepare('SELECT id, nickname FROM nicknames WHERE user_id = ? ORDER BY id').bind(id),
  ]);
  const row = user.results[0] as UserRow | undefined;
  return row ? toWireUser(row, nicks.results as unknown as Nickname[]) : null;
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
