import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { AUTH_COOKIE_DAYS } from '../../shared/constants';
import type { AppEnv, Bindings } from '../env';
import { randomToken, sha256Hex, sign } from './crypto';
import { ApiError } from './errors';

export const AUTH_COOKIE = 'auth._token';
export const SESSION_COOKIE = 'lc_sid';
const DAY = 86_400;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

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

/** Sets a signed session cookie with a new id (its D1 row is created when first needed). */
export async function issueSessionCookie(c: Context<AppEnv>): Promise<string> {
  const id = randomToken(24);
  setCookie(c, SESSION_COOKIE, await sign(sessionSecret(c.env), id), {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    maxAge: 365 * DAY,
  });
  c.set('cookieSessionId', id);
  return id;
}

/** Issues an auth token (only its hash is stored) and sets the 2-day HttpOnly cookie. */
export async function logIn(c: Context<AppEnv>, userId: number): Promise<void> {
  const token = randomToken();
  const now = nowSeconds();
  const sessionId = c.get('sessionId');
  const statements = [
    c.env.DB.prepare('INSERT INTO auth_tokens (token_hash, user_id, session_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').bind(
      await sha256Hex(token),
      userId,
      sessionId,
      now,
      now + AUTH_COOKIE_DAYS * DAY,
    ),
  ];
  if (sessionId) statements.push(c.env.DB.prepare('UPDATE sessions SET user_id = ? WHERE id = ?').bind(userId, sessionId));
  await c.env.DB.batch(statements);
  setCookie(c, AUTH_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: AUTH_COOKIE_DAYS * DAY });
}

/** Revokes the current auth token server-side, so a copy of the cookie stops working too. */
export async function logOut(c: Context<AppEnv>): Promise<void> {
  const token = getCookie(c, AUTH_COOKIE);
  const statements = [];
  if (token) statements.push(c.env.DB.prepare('DELETE FROM auth_tokens WHERE token_hash = ?').bind(await sha256Hex(token)));
  const sessionId = c.get('sessionId');
  if (sessionId) statements.push(c.env.DB.prepare('UPDATE sessions SET user_id = NULL, register_email = NULL WHERE id = ?').bind(sessionId));
  if (statements.length) await c.env.DB.batch(statements);
  deleteCookie(c, AUTH_COOKIE, { path: '/', secure: isHttps(c) });
}

/** 401 unless logged in; the user id otherwise. */
export function requireUserId(c: Context<AppEnv>): number {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  return user.id;
}

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  requireUserId(c);
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
