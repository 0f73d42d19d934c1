import { flags, pick } from '../../../shared/pick';
import { visitorSession, type Nickname, type Session } from '../../../shared/session';
import type { UserRow } from '../account/account.repo';

export interface SessionRow {
  id: string;
  webid: number;
  website_id: number;
  visitor_id: string | null;
  domain: string | null;
  host: string | null;
  agechecked: number;
  splash18_confirmed: number;
  voicecall: number;
  phonecall_payment_type_id: number | null;
  phonecall_product_id: number | null;
  phonecall_payment_name: string | null;
  sms_coins_disabled: number;
  sms_coins_available: number;
  welcome_shown: number;
  incentive_tsp: number | null;
  redirect_splash: string | null;
  temp_nickname: string | null;
  agent_id: number | null;
  chatsession_id: string | null;
  user_id: number | null;
  register_email: string | null;
  created_at: number;
  seen_at: number;
}

/** The session as the client sees it. */
export function toWireSession(row: SessionRow | null, overrides: Partial<Session> = {}): Session {
  if (!row) return visitorSession(overrides);
  return {
    ...visitorSession(),
    ...pick(row, ['webid', 'website_id']),
    session_id: row.id,
    visitor_id: row.visitor_id,
    ...flags(row, ['agechecked', 'splash18_confirmed', 'voicecall']),
    ...pick(row, ['phonecall_payment_type_id', 'phonecall_product_id', 'phonecall_payment_name']),
    ...flags(row, ['sms_coins_disabled', 'sms_coins_available']),
    redirect_splash: row.redirect_splash,
    nickname: row.temp_nickname,
    welcome_dialog: row.welcome_shown === 1 ? null : { video: true, voucher: true },
    incentive_tsp: row.incentive_tsp,
    agent: row.agent_id,
    chatsession_id: row.chatsession_id,
    host: row.host,
    _date: row.created_at,
    register_email: row.register_email,
    ...overrides,
  };
}

export function getSession(db: D1Database, id: string) {
  return db.prepare('SELECT * FROM sessions WHERE id = ?').bind(id).first<SessionRow>();
}

export async function createSession(db: D1Database, id: string, fields: { host: string; splash18_confirmed: boolean; now: number }): Promise<SessionRow> {
  const row = await db
    .prepare(
      // Two first calls of one page may race for the same cookie id: both get the one row.
      `INSERT INTO sessions (id, host, domain, splash18_confirmed, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at RETURNING *`,
    )
    .bind(id, fields.host, fields.host, fields.splash18_confirmed ? 1 : 0, fields.now, fields.now)
    .first<SessionRow>();
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

type Settable = Partial<
  Pick<
    SessionRow,
    | 'visitor_id'
    | 'agechecked'
    | 'splash18_confirmed'
    | 'welcome_shown'
    | 'incentive_tsp'
    | 'redirect_splash'
    | 'user_id'
    | 'register_email'
    | 'voicecall'
    | 'seen_at'
    | 'agechecked'
    | 'phonecall_payment_type_id'
    | 'phonecall_product_id'
    | 'phonecall_payment_name'
  > & { vid_confidence: number }
>;

const SETTABLE = new Set<string>([
  'visitor_id',
  'vid_confidence',
  'agechecked',
  'splash18_confirmed',
  'welcome_shown',
  'incentive_tsp',
  'redirect_splash',
  'user_id',
  'register_email',
  'voicecall',
  'seen_at',
  'phonecall_payment_type_id',
  'phonecall_product_id',
  'phonecall_payment_name',
]);

/** Updates the given columns (a fixed allow-list, so no column name comes from input). */
export async function updateSession(db: D1Database, id: string, fields: Settable): Promise<SessionRow | null> {
  const keys = Object.keys(fields).filter((k) => SETTABLE.has(k));
  if (keys.length === 0) return getSession(db, id);
  return db
    .prepare(`UPDATE sessions SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ? RETURNING *`)
    .bind(...keys.map((k) => (fields as Record<string, unknown>)[k] ?? null), id)
    .first<SessionRow>();
}

/** The member has seen the welcome dialog: the first time counts, later calls change nothing. */
export async function markWelcomeShown(db: D1Database, userId: number, now: number): Promise<void> {
  await db.prepare('UPDATE users SET welcome_shown_at = COALESCE(welcome_shown_at, ?) WHERE id = ?').bind(now, userId).run();
}

/**
 * Moves a session row to a new id (login and logout rotate it), with the billings that point at
 * it; the first statement answers the moved row. `userId` null also forgets the sign-up address.
 */
export function renameSessionStatements(db: D1Database, oldId: string, newId: string, userId: number | null): D1PreparedStatement[] {
  return [
    db
      .prepare(
        // Voice-call mode is the member's call: it ends with the member in this browser.
        userId === null
          ? 'UPDATE sessions SET id = ?1, user_id = NULL, register_email = NULL, voicecall = 0 WHERE id = ?2 RETURNING *'
          : 'UPDATE sessions SET id = ?1, voicecall = CASE WHEN user_id IS ?3 THEN voicecall ELSE 0 END, user_id = ?3 WHERE id = ?2 RETURNING *',
      )
      .bind(...(userId === null ? [newId, oldId] : [newId, oldId, userId])),
    db.prepare('UPDATE billings SET session_id = ? WHERE session_id = ?').bind(newId, oldId),
    // Open chats stay with the browser session that started them (a login's chats are its session's).
    db.prepare("UPDATE chat_sessions SET visitor = ? WHERE visitor = ? AND state <> 'ended'").bind(newId, oldId),
  ];
}

/**
 * A banned or suspended account (migration 0028) has no login, even one made while its
 * restriction was being written (the restriction ends its tokens too). `now` names the parameter.
 */
const notRestricted = (userId: string, now: string) =>
  `NOT EXISTS (SELECT 1 FROM restrictions r WHERE r.user_id = ${userId} AND r.lifted_at IS NULL AND (r.ends_at IS NULL OR r.ends_at > ${now}))`;

/** The login (auth token) that began with session `loginId` is still valid for the member. */
export async function loginAliveRow(db: D1Database, userId: number, loginId: string, now: number): Promise<boolean> {
  return !!(await db.prepare(`SELECT 1 AS x FROM auth_tokens a WHERE a.user_id = ? AND a.session_id = ? AND a.expires_at > ?3 AND ${notRestricted('a.user_id', '?3')}`).bind(userId, loginId, now).first());
}

export const insertAuthTokenStatement = (db: D1Database, tokenHash: string, userId: number, sessionId: string, now: number, expiresAt: number) =>
  db.prepare('INSERT INTO auth_tokens (token_hash, user_id, session_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').bind(tokenHash, userId, sessionId, now, expiresAt);

export const deleteAuthTokenStatement = (db: D1Database, tokenHash: string) => db.prepare('DELETE FROM auth_tokens WHERE token_hash = ?').bind(tokenHash);

/**
 * The session row and the member behind an auth token (with their nicknames), in one round trip.
 * An unknown id or hash ('' when there is none) finds nothing.
 */
export async function loadVisitor(
  db: D1Database,
  sessionId: string,
  tokenHash: string,
  now: number,
): Promise<{ session: SessionRow | null; user: UserRow | null; nicknames: Nickname[] }> {
  const [s, u, n] = await db.batch<SessionRow | UserRow | Nickname>([
    db.prepare('SELECT * FROM sessions WHERE id = ?').bind(sessionId),
    db
      .prepare(`SELECT u.*, (SELECT p.show_id FROM performers p WHERE p.user_id = u.id) AS performer_show, a.session_id AS login_id, EXISTS (SELECT 1 FROM operators o WHERE o.user_id = u.id) AS is_operator, a.second_factor_at FROM auth_tokens a JOIN users u ON u.id = a.user_id WHERE a.token_hash = ? AND a.expires_at > ?2 AND u.cancelled_at IS NULL AND ${notRestricted('u.id', '?2')}`)
      .bind(tokenHash, now),
    db
      .prepare('SELECT n.id, n.nickname FROM auth_tokens a JOIN nicknames n ON n.user_id = a.user_id WHERE a.token_hash = ? AND a.expires_at > ? ORDER BY n.id')
      .bind(tokenHash, now),
  ]);
  return {
    session: (s.results[0] as SessionRow | undefined) ?? null,
    user: (u.results[0] as UserRow | undefined) ?? null,
    nicknames: n.results as Nickname[],
  };
}

/** Back from the splash target: the detour is forgotten. */
export async function clearRedirectSplash(db: D1Database, id: string): Promise<void> {
  await db.prepare('UPDATE sessions SET redirect_splash = NULL WHERE id = ?').bind(id).run();
}

/** The welcome offer's free video: the best rated one. */
export async function welcomeVideoId(db: D1Database): Promise<number | null> {
  return (await db.prepare("SELECT id FROM videos WHERE status = 'published' AND review = 'approved' ORDER BY rating DESC, id LIMIT 1").first<{ id: number }>())?.id ?? null;
}
