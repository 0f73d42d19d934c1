import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants';
import type { AppEnv } from '../env';
import { cookieName, ensureVisitorCookies, requestCsrfToken } from '../features/session/session.service';
import { timingSafeEqual } from '../lib/crypto';
import { ApiError } from '../lib/errors';
import { readForm, type FormFields } from '../lib/body';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every write echoes the session's CSRF token in X-XSRF-TOKEN, else 419. The token is an HMAC of
 * the session id (from the signed lc_sid cookie) and the auth cookie, so an equal cookie/header pair that someone
 * made up, or the token of another session, does not pass; the cookie must carry it too.
 */
export const csrf = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const sid = c.get('cookieSessionId');
    const header = c.req.header(CSRF_HEADER) ?? '';
    const cookie = getCookie(c, cookieName(c, CSRF_COOKIE)) ?? '';
    const expected = sid ? await requestCsrfToken(c, sid) : '';
    if (!expected || !timingSafeEqual(header, expected) || !timingSafeEqual(cookie, expected)) throw new ApiError(419, 'csrf_token_mismatch');
  }
  await next();
});

/** The name of the hidden field that carries the CSRF token in a form posted without script. */
export const CSRF_FIELD = '_token';

/**
 * A form posted by the browser itself (no script, so no header): the same token travels in the
 * hidden `_token` field the page rendered, checked like the header (the session's HMAC, in the
 * field and in the cookie), else 419. A cross-site form has neither the session cookie (SameSite)
 * nor the token. Answers the form's fields.
 */
export async function checkedForm(c: Context<AppEnv>): Promise<FormFields> {
  const form = await readForm(c);
  // Not a well-formed form (or control characters in it): bad input, nothing changes.
  if (!form) throw new ApiError(422, 'invalid_body');
  const sid = c.get('cookieSessionId');
  const expected = sid ? await requestCsrfToken(c, sid) : '';
  const cookie = getCookie(c, cookieName(c, CSRF_COOKIE)) ?? '';
  const field = form[CSRF_FIELD] ?? '';
  if (!expected || !timingSafeEqual(field, expected) || !timingSafeEqual(cookie, expected)) throw new ApiError(419, 'csrf_token_mismatch');
  c.set('csrfToken', expected);
  return form;
}

/**
 * A page view hands out the session cookie (its id only; the D1 row is written on the first
 * session call) and the CSRF token of that id. So the first calls of a page, which may run at
 * once, all carry the same token and the same session id instead of racing to create their own.
 */
export const visitorCookies = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET') await ensureVisitorCookies(c);
  await next();
});
