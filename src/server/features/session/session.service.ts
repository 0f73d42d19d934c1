import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { CONSENT_COOKIE, CONSENT_COOKIE_DAYS, CSRF_COOKIE, SPLASH_COOKIE, type ConsentAnswer } from '../../../shared/constants';
import type { Nickname, Session } from '../../../shared/session';
import type { AppEnv, Bindings } from '../../env';
import type { UserRow } from '../account/account.repo';
import { clearRedirectSplash, createSession, loadVisitor, loginAliveRow, toWireSession, updateSession, type SessionRow } from './session.repo';
import { hmac, randomToken, sha256Hex, sign, unsign } from '../../lib/crypto';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';

export const AUTH_COOKIE = 'auth._token';
export const SESSION_COOKIE = 'lc_sid';
export const DAY = 86_400;
export const SESSION_DAYS = 365;

export function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:';
}

export function sessionSecret(env: Bindings): string {
  const secret = env.SESSION_SECRET ?? env.PASSWORD_PEPPER;
  if (!secret) throw new Error('SESSION_SECRET is not configured');
  return secret;
}

export function pepper(env: Bindings): string {
  if (!env.PASSWORD_PEPPER) throw new Error('PASSWORD_PEPPER is not configured');
  return env.PASSWORD_PEPPER;
}

/**
 * The name of one of our session cookies: on https with the `__Host-` prefix (Secure, Path=/, no
 * Domain), so a sibling host or a plain-http answer cannot plant it; on http (local development,
 * tests) the plain name. Only the name for the request's scheme is ever read.
 */
export function cookieName(c: Context, base: string): string {
  return isHttps(c) ? `__Host-${base}` : base;
}

/**
 * The CSRF token of a session and of the login it carries: an HMAC of the session id and the auth
 * cookie, so only the server can make one, and a pair from before a login or logout (another auth
 * cookie, or none) is refused beside the cookie that came after it.
 */
export function csrfTokenFor(env: Bindings, sessionId: string, authToken: string | null): Promise<string> {
  return hmac(sessionSecret(env), `csrf:${sessionId}:${authToken ?? ''}`);
}

/** The auth cookie this request carries (a value too long to be ours counts as none). */
export function authCookie(c: Context): string | null {
  const token = getCookie(c, cookieName(c, AUTH_COOKIE));
  return token && token.length <= 128 ? token : null;
}

/** The CSRF token this request's session and auth cookies call for. */
export function requestCsrfToken(c: Context<AppEnv>, sessionId: string): Promise<string> {
  return csrfTokenFor(c.env, sessionId, authCookie(c));
}

/** `auth`: the auth cookie the browser holds after this answer. */
export async function setSessionCookies(c: Context<AppEnv>, id: string, auth: string | null): Promise<void> {
  const secure = isHttps(c);
  const maxAge = SESSION_DAYS * DAY;
  setCookie(c, cookieName(c, SESSION_COOKIE), await sign(sessionSecret(c.env), id), { path: '/', httpOnly: true, sameSite: 'Lax', secure, maxAge });
  // Readable by the page's script, which echoes it in X-XSRF-TOKEN.
  const token = await csrfTokenFor(c.env, id, auth);
  setCookie(c, cookieName(c, CSRF_COOKIE), token, { path: '/', sameSite: 'Lax', secure, maxAge });
  c.set('cookieSessionId', id);
  c.set('csrfToken', token);
}

/**
 * Sets a signed session cookie with a new id and its CSRF token cookie, always together (the D1
 * row is created when first needed).
 */
async function issueSessionCookie(c: Context<AppEnv>): Promise<string> {
  const id = randomToken(24);
  await setSessionCookies(c, id, authCookie(c));
  return id;
}

/**
 * Page views and GET auth/csrf-cookie: the visitor keeps the session id it has (so the first
 * calls of a page, which may run at once, share it) and gets the CSRF token of that id when its
 * cookie lacks it. The token is derived from the id, so racing answers all set the same value.
 */
export async function ensureVisitorCookies(c: Context<AppEnv>): Promise<void> {
  const sid = c.get('cookieSessionId');
  if (!sid) {
    await issueSessionCookie(c);
    return;
  }
  const token = await requestCsrfToken(c, sid);
  c.set('csrfToken', token);
  if (getCookie(c, cookieName(c, CSRF_COOKIE)) !== token) {
    setCookie(c, cookieName(c, CSRF_COOKIE), token, { path: '/', sameSite: 'Lax', secure: isHttps(c), maxAge: SESSION_DAYS * DAY });
  }
}

/** The visitor behind this request's cookies, as the session middleware puts it on the context. */
export interface Visitor {
  /** The id the signed session cookie carries (its row is written on the first session call). */
  cookieSessionId: string | null;
  row: SessionRow | null;
  /** The session as answered. */
  session: Session;
  /** The member behind the auth cookie, unless blocked. */
  member: UserRow | null;
  nicknames: Nickname[];
}

/**
 * Loads the visitor session (signed cookie -> D1 row) and the member behind the auth cookie, in
 * one round trip; without either cookie, none.
 */
export async function loadRequestVisitor(c: Context<AppEnv>): Promise<Visitor> {
  const sid = await unsign(sessionSecret(c.env), getCookie(c, cookieName(c, SESSION_COOKIE)));
  const token = authCookie(c);
  const splashCookie = getCookie(c, SPLASH_COOKIE) === '1';

  let row: SessionRow | null = null;
  let userRow: UserRow | null = null;
  let nicknames: Nickname[] = [];
  if (sid || token) {
    const hash = token ? await sha256Hex(token) : '';
    ({ session: row, user: userRow, nicknames } = await loadVisitor(c.env.DB, sid ?? '', hash, nowSeconds()));
  }
  const member = userRow && userRow.blocked === 0 ? userRow : null;
  const session = toWireSession(row, {
    // The device remembers the age confirmation even when the session is new.
    ...(row?.splash18_confirmed || splashCookie ? { splash18_confirmed: true } : {}),
    // A member is welcomed once: a new session (every login) does not greet them again.
    ...(member?.welcome_shown_at ? { welcome_dialog: null } : {}),
  });
  return { cookieSessionId: sid, row, session, member, nicknames };
}

/**
 * The session row for this request, created when the visitor has none: under the id of the
 * session cookie a page view issued, else under a new id with its cookie.
 */
export async function ensureSession(c: Context<AppEnv>): Promise<string> {
  const existing = c.get('sessionId');
  if (existing) return existing;
  const id = c.get('cookieSessionId') ?? (await issueSessionCookie(c));
  const row = await createSession(c.env.DB, id, {
    host: new URL(c.req.url).host,
    splash18_confirmed: c.get('session').splash18_confirmed,
    now: nowSeconds(),
  });
  c.set('sessionId', id);
  c.set('session', wireSession(c, row));
  return id;
}

/**
 * The session as answered after a change of its row. A member who was welcomed before stays
 * welcomed, whatever this session's row says (every login starts a new session).
 */
function wireSession(c: Context<AppEnv>, row: SessionRow) {
  return toWireSession(row, c.get('memberWelcomed') ? { welcome_dialog: null } : {});
}

/** Changes columns of this request's session row (created if needed) and answers the row. */
export async function updateSessionRow(c: Context<AppEnv>, fields: Parameters<typeof updateSession>[2]): Promise<SessionRow | null> {
  const id = await ensureSession(c);
  const row = await updateSession(c.env.DB, id, fields);
  if (row) c.set('session', wireSession(c, row));
  return row;
}

/** A room or lobby socket of `userId` opened by login `loginId` may (still) connect. */
export function loginAlive(db: D1Database, userId: number, loginId: string | null | undefined): Promise<boolean> {
  return loginId ? loginAliveRow(db, userId, loginId, nowSeconds()) : Promise.resolve(false);
}

/** 401 unless logged in; the user id otherwise. */
export function requireUserId(c: Context<AppEnv>): number {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  return user.id;
}

/** 401 unless logged in; the handlers behind it read the member as `c.var.member`. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  c.set('member', user);
  await next();
});

/** 403 not_verified for members who have not confirmed their e-mail. */
export const requireVerified = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  if (!user.is_verified) throw new ApiError(403, 'not_verified');
  await next();
});

/** The client address for throttling keys. */
export function clientIp(c: Context): string {
  return c.req.header('CF-Connecting-IP') ?? c.req.header('X-Real-IP') ?? '127.0.0.1';
}

/** Back from the splash target: the session forgets the detour. */
export async function forgetSplashDetour(c: Context<AppEnv>): Promise<void> {
  const sessionId = c.get('sessionId');
  if (sessionId) await clearRedirectSplash(c.env.DB, sessionId);
}

/**
 * The age splash was confirmed: recorded on the session row and in the device cookie, which
 * outlives sessions (the API call and the form posted without script both come here).
 */
export async function confirmSplash(c: Context<AppEnv>): Promise<void> {
  await updateSessionRow(c, { splash18_confirmed: 1 });
  setCookie(c, SPLASH_COOKIE, '1', { path: '/', sameSite: 'Lax', httpOnly: true, secure: isHttps(c), maxAge: SESSION_DAYS * DAY });
}

/**
 * The consent banner's answer posted without script: the same cookie the banner writes with
 * script (readable by the page, a year, Lax, Secure on https), so both paths look alike.
 */
export function recordConsent(c: Context, answer: ConsentAnswer): void {
  setCookie(c, CONSENT_COOKIE, answer, { path: '/', sameSite: 'Lax', secure: isHttps(c), maxAge: CONSENT_COOKIE_DAYS * DAY });
}
