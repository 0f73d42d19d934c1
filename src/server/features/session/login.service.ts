import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { AUTH_COOKIE_DAYS } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { randomToken, sha256Hex, sign, unsign } from '../../lib/crypto';
import { recordPlaceStatement } from '../../lib/member-place.repo';
import { deleteAuthTokenStatement, insertAuthTokenStatement, renameSessionStatements, toWireSession, type SessionRow } from './session.repo';
import { AUTH_COOKIE, authCookie, cookieName, DAY, isHttps, SESSION_DAYS, sessionSecret, setSessionCookies } from './session.service';

// Logging in and out: both move the session to a new id, and a login is remembered on the device.

/** The accounts this browser logged into: their owner's logins are throttled apart from strangers' guesses. */
export const DEVICE_COOKIE = 'lc_dev';
/** How many accounts a browser remembers (the most recent ones). */
const DEVICE_ACCOUNTS = 5;

/**
 * Moves the session to a new id (and with it the CSRF token) in the same batch as `statements`:
 * a session id or token known before a login or logout is worthless after it (no fixation).
 */
async function rotateSession(
  c: Context<AppEnv>,
  userId: number | null,
  auth: string | null,
  work: (newId: string) => Promise<D1PreparedStatement[]>,
): Promise<string> {
  const db = c.env.DB;
  const oldId = c.get('sessionId');
  const newId = randomToken(24);
  const statements = await work(newId);
  const rename = oldId ? renameSessionStatements(db, oldId, newId, userId) : [];
  const all = [...statements, ...rename];
  const results = all.length ? await db.batch(all) : [];
  await setSessionCookies(c, newId, auth);
  if (!oldId) return newId;
  const row = (results[statements.length]?.results[0] as SessionRow | undefined) ?? null;
  c.set('sessionId', row ? newId : null);
  c.set('session', toWireSession(row, c.get('session').splash18_confirmed ? { splash18_confirmed: true } : {}));
  return newId;
}

async function readDevice(c: Context<AppEnv>): Promise<{ id: string; accounts: number[] } | null> {
  const value = await unsign(sessionSecret(c.env), getCookie(c, cookieName(c, DEVICE_COOKIE)));
  const m = value ? /^([0-9-]*):([A-Za-z0-9_-]{16,64})$/.exec(value) : null;
  if (!m) return null;
  return { id: m[2], accounts: m[1] ? m[1].split('-').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : [] };
}

/**
 * This browser's id when it logged into `userId` before (signed cookie), else null: the right
 * password from there is not refused for what strangers guessed at the account.
 */
export async function knownDevice(c: Context<AppEnv>, userId: number): Promise<string | null> {
  const device = await readDevice(c);
  return device?.accounts.includes(userId) ? device.id : null;
}

/** The browser remembers that it logged into `userId` (the id it has, or a new one). */
async function rememberDevice(c: Context<AppEnv>, userId: number): Promise<void> {
  const device = await readDevice(c);
  const accounts = [userId, ...(device?.accounts ?? []).filter((a) => a !== userId)].slice(0, DEVICE_ACCOUNTS);
  const value = await sign(sessionSecret(c.env), `${accounts.join('-')}:${device?.id ?? randomToken(18)}`);
  setCookie(c, cookieName(c, DEVICE_COOKIE), value, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: SESSION_DAYS * DAY });
}

/**
 * Issues an auth token (only its hash is stored), sets the 2-day HttpOnly cookie and rotates the
 * session id and CSRF token. A login this browser had before ends. The browser is remembered as
 * one of the member's devices (it outlives the logout). The request's place becomes the member's
 * last known place (geo-blocking).
 */
export async function logIn(c: Context<AppEnv>, userId: number): Promise<void> {
  const db = c.env.DB;
  const token = randomToken();
  const now = nowSeconds();
  const previous = authCookie(c);
  const loginId = await rotateSession(c, userId, token, async (newId) => {
    const statements: D1PreparedStatement[] = [];
    if (previous) statements.push(deleteAuthTokenStatement(db, await sha256Hex(previous)));
    statements.push(insertAuthTokenStatement(db, await sha256Hex(token), userId, newId, now, now + AUTH_COOKIE_DAYS * DAY));
    // The member's last known place (geo-blocking: favourite-online notices, docs/geo-blocking.md).
    const place = recordPlaceStatement(db, userId, c.get('place'), now);
    if (place) statements.push(place);
    return statements;
  });
  setCookie(c, cookieName(c, AUTH_COOKIE), token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: AUTH_COOKIE_DAYS * DAY });
  c.set('loginId', loginId);
  await rememberDevice(c, userId);
}

/**
 * Revokes the current auth token server-side, so a copy of the cookie stops working too, and
 * rotates the session id and CSRF token.
 */
export async function logOut(c: Context<AppEnv>): Promise<void> {
  const token = authCookie(c);
  await rotateSession(c, null, null, async () => (token ? [deleteAuthTokenStatement(c.env.DB, await sha256Hex(token))] : []));
  c.set('loginId', null);
  deleteCookie(c, cookieName(c, AUTH_COOKIE), { path: '/', secure: isHttps(c) });
}
