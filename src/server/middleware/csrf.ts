import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants';
import type { AppEnv } from '../env';
import { cookieName, csrfTokenFor, ensureVisitorCookies } from '../features/session/session.service';
import { timingSafeEqual } from '../lib/crypto';
import { ApiError } from '../lib/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every write echoes the session's CSRF token in X-XSRF-TOKEN, else 419. The token is an HMAC of
 * the session id (from the signed lc_sid cookie), so an equal cookie/header pair that someone
 * made up, or the token of another session, does not pass; the cookie must carry it too.
 */
export const csrf = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const sid = c.get('cookieSessionId');
    const header = c.req.header(CSRF_HEADER) ?? '';
    const cookie = getCookie(c, cookieName(c, CSRF_COOKIE)) ?? '';
    const expected = sid ? await csrfTokenFor(c.env, sid) : '';
    if (!expected || !timingSafeEqual(header, expected) || !timingSafeEqual(cookie, expected)) throw new ApiError(419, 'csrf_token_mismatch');
  }
  await next();
});

/**
 * A page view hands out the session cookie (its id only; the D1 row is written on the first
 * session call) and the CSRF token of that id. So the first calls of a page, which may run at
 * once, all carry the same token and the same session id instead of racing to create their own.
 */
export const visitorCookies = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET') await ensureVisitorCookies(c);
  await next();
});
