import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { SPLASH_COOKIE } from '../../shared/constants';
import type { Nickname } from '../../shared/session';
import type { AppEnv } from '../env';
import { AUTH_COOKIE, cookieName, SESSION_COOKIE, sessionSecret } from '../features/session/session.service';
import { nowSeconds } from '../lib/clock';
import { sha256Hex, unsign } from '../lib/crypto';
import { loadVisitor, toWireSession, type SessionRow } from '../features/session/session.repo';
import { toWireUser, type UserRow } from '../features/account/account.repo';

/**
 * Loads the visitor session (signed cookie -> D1 row) and the member behind the auth cookie,
 * in one round trip. A page view issues the session cookie (id only, see visitorCookies), the row
 * is written when the client calls session/init: page views cost no D1 write.
 */
export const session = createMiddleware<AppEnv>(async (c, next) => {
  const sid = await unsign(sessionSecret(c.env), getCookie(c, cookieName(c, SESSION_COOKIE)));
  const token = getCookie(c, cookieName(c, AUTH_COOKIE));
  const splashCookie = getCookie(c, SPLASH_COOKIE) === '1';

  let row: SessionRow | null = null;
  let userRow: UserRow | null = null;
  let nicknames: Nickname[] = [];
  if (sid || (token && token.length <= 128)) {
    const hash = token && token.length <= 128 ? await sha256Hex(token) : '';
    ({ session: row, user: userRow, nicknames } = await loadVisitor(c.env.DB, sid ?? '', hash, nowSeconds()));
  }

  c.set('sessionId', row?.id ?? null);
  c.set('cookieSessionId', sid);
  const member = userRow && userRow.blocked === 0 ? userRow : null;
  c.set(
    'session',
    toWireSession(row, {
      // The device remembers the age confirmation even when the session is new.
      ...(row?.splash18_confirmed || splashCookie ? { splash18_confirmed: true } : {}),
      // A member is welcomed once: a new session (every login) does not greet them again.
      ...(member?.welcome_shown_at ? { welcome_dialog: null } : {}),
    }),
  );
  c.set('user', member ? toWireUser(member, nicknames) : null);
  c.set('loginId', member?.login_id ?? null);
  c.set('memberWelcomed', !!member?.welcome_shown_at);
  await next();
});
