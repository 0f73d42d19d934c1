import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { CSRF_COOKIE, CSRF_HEADER } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { refuseControlCharacters } from '../../lib/body';
import { timingSafeEqual } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { verifyRoomToken } from '../../lib/room-token';
import { roomOf } from './chat.service';
import { cookieName, requestCsrfToken } from '../session/session.service';
import { endSessionRow, findSession } from './chat.repo';
import { rowView, sessionIdParam } from './chatsession.routes';

/** The room token from a beacon body: `{"password": "..."}` as JSON or text/plain (sendBeacon cannot send JSON types). */
function beaconToken(text: string): string | null {
  if (!text || text.length > 4096) return null;
  try {
    const v = JSON.parse(text) as { password?: unknown };
    refuseControlCharacters(v);
    return typeof v?.password === 'string' ? v.password : null;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    return null;
  }
}

/**
 * POST /api/chatsession/end/{sessionId}: the session's owner ends it. Mounted before the CSRF
 * middleware because the page-hide beacon (navigator.sendBeacon) cannot send the CSRF header: a
 * call proves ownership EITHER with the CSRF header (and the member or guest browser that owns the
 * session) OR with the session's room token in the body ({"password": token}; signature checked,
 * bound to this session id; an expired token still ends its own session). Ending twice answers
 * the ended session again.
 */
export const chatEndRoutes = new Hono<AppEnv>().post('/:sessionId', async (c) => {
  const parsed = sessionIdParam.safeParse({ sessionId: c.req.param('sessionId') });
  if (!parsed.success) throw new ApiError(404, 'not_found');
  const db = c.env.DB;
  const s = await findSession(db, parsed.data.sessionId);
  if (!s) throw new ApiError(404, 'not_found');
  const sid = c.get('cookieSessionId');
  const header = c.req.header(CSRF_HEADER);
  let owner = false;
  if (header !== undefined) {
    const expected = sid ? await requestCsrfToken(c, sid) : '';
    const cookie = getCookie(c, cookieName(c, CSRF_COOKIE)) ?? '';
    if (!expected || !timingSafeEqual(header, expected) || !timingSafeEqual(cookie, expected)) throw new ApiError(419, 'csrf_token_mismatch');
    const user = c.get('user');
    owner = user ? s.user_id === user.id : s.user_id === null && s.visitor === sid;
  } else {
    const claims = await verifyRoomToken(c.env, beaconToken(await c.req.text()), s.show_id, true);
    owner = !!claims && claims.sub === s.id;
  }
  if (!owner) throw new ApiError(404, 'not_found');
  if (s.state !== 'ended') {
    const view = await roomOf(c.env, s.show_id).end(s.id, 'member');
    if (!view) await endSessionRow(db, s.id, 'member', Date.now());
  }
  const after = await findSession(db, s.id);
  c.header('Cache-Control', 'no-store');
  return c.json({ session: rowView(after ?? s) });
});
