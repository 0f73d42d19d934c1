import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { SPLASH_COOKIE } from '../../shared/constants';
import { visitorSession } from '../../shared/session';
import type { AppEnv } from '../env';

/**
 * The visitor's session. For now it lives in cookies (age splash confirmation);
 * the accounts work moves it to a signed cookie plus a D1 row.
 */
export const session = createMiddleware<AppEnv>(async (c, next) => {
  c.set('session', visitorSession({ splash18_confirmed: getCookie(c, SPLASH_COOKIE) === '1' }));
  c.set('user', null);
  await next();
});
