import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { wireMember } from '../features/account/account.service';
import { loadRequestVisitor } from '../features/session/session.service';

/**
 * Loads the visitor session (signed cookie -> D1 row) and the member behind the auth cookie,
 * in one round trip. A page view issues the session cookie (id only, see visitorCookies), the row
 * is written when the client calls session/init: page views cost no D1 write.
 */
export const session = createMiddleware<AppEnv>(async (c, next) => {
  const { cookieSessionId, row, session, member, nicknames } = await loadRequestVisitor(c);
  c.set('sessionId', row?.id ?? null);
  c.set('cookieSessionId', cookieSessionId);
  c.set('session', session);
  c.set('user', member ? wireMember(member, nicknames) : null);
  c.set('loginId', member?.login_id ?? null);
  c.set('memberWelcomed', !!member?.welcome_shown_at);
  c.set('operator', member?.is_operator ? { secondFactorAt: member.second_factor_at ?? null } : null);
  await next();
});
