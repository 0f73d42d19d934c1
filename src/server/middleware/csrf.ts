import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { timingSafeEqual } from '../lib/crypto';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Double-submit check: every write echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN, else 419. */
export const csrf = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const cookie = getCookie(c, CSRF_COOKIE) ?? '';
    const header = c.req.header(CSRF_HEADER) ?? '';
    if (cookie.length < 16 || !timingSafeEqual(cookie, header)) throw new ApiError(419, 'csrf_token_mismatch');
  }
  await next();
});
