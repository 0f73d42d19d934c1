import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants';
import type { AppEnv } from '../env';
import { isHttps, issueSessionCookie } from '../lib/auth';
import { randomToken, timingSafeEqual } from '../lib/crypto';
import { ApiError } from '../lib/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const WELL_FORMED = /^[A-Za-z0-9_-]{32,64}$/;

/** Double-submit check: every write echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN, else 419. */
export const csrf = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const cookie = getCookie(c, CSRF_COOKIE) ?? '';
    const header = c.req.header(CSRF_HEADER) ?? '';
    if (cookie.length < 16 || !timingSafeEqual(cookie, header)) throw new ApiError(419, 'csrf_token_mismatch');
  }
  await next();
});

/**
 * Sets the XSRF-TOKEN cookie unless a well-formed one is there. Keeping an existing token matters:
 * a new one would invalidate writes already on their way.
 */
export function ensureCsrfCookie(c: Context<AppEnv>): void {
  if (WELL_FORMED.test(getCookie(c, CSRF_COOKIE) ?? '')) return;
  setCookie(c, CSRF_COOKIE, randomToken(), { path: '/', sameSite: 'Lax', secure: isHttps(c), maxAge: 2 * 86_400 });
}

/**
 * A page view hands out the CSRF token and the session cookie (its id only; the D1 row is written
 * on the first session call). So the first calls of a page, which may run at once, all carry the
 * same token and the same session id instead of racing to create their own.
 */
export const visitorCookies = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET') {
    ensureCsrfCookie(c);
    if (!c.get('cookieSessionId')) await issueSessionCookie(c);
  }
  await next();
});
