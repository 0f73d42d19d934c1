import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { ExternalExtendAnswer } from '../../../shared/chat';
import { ExternalFramePage, type ExternalFrameProps } from '../../../client/features/chat/external-frame';
import type { AppEnv } from '../../env';
import { refuseControlCharacters } from '../../lib/body';
import { ApiError } from '../../lib/errors';
import { verifyFrameTicket } from '../../lib/frame-ticket';
import { socketOriginAllowed } from '../../lib/origin';
import { signRoomToken } from '../../lib/room-token';
import { validationHook } from '../../lib/validation';
import { csrf } from '../../middleware/csrf';
import { renderPage } from '../../render/render-page';
import { endSessionRow, findSession, showById, type ChatSessionRow } from './chat.repo';
import { isExternal, ownsSession } from './chat-external';
import { realmOf, roomOf } from './chat.service';
import { rowView } from './chatsession.routes';

const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;
const sessionBody = z.object({ sessionId: z.string({ message: 'chat.no_session' }).regex(SESSION_ID, 'chat.no_session') });

/** The caller's own session of a partner show, else null (unknown, another's and an own-provider session alike). */
async function ownExternal(c: Context<AppEnv>, sessionId: string): Promise<ChatSessionRow | null> {
  const s = await findSession(c.env.DB, sessionId);
  if (!s || !ownsSession(c, s)) return null;
  const show = await showById(c.env.DB, s.show_id);
  return show && isExternal(show) ? s : null;
}

function framePage(c: Context<AppEnv>, props: ExternalFrameProps, status: ContentfulStatusCode = 200): Response {
  const t = c.get('t');
  const res = renderPage(c, <ExternalFramePage {...props} />, { title: t('chat.external.pageTitle', { name: props.show?.name ?? '' }), robots: 'noindex', texts: ['chat', 'video'] }, status);
  // The document carries a room token: never stored.
  res.headers.set('Cache-Control', 'no-store');
  return res;
}

/**
 * /api/chat/external: the partner frame and the lease. GET /vxm?session=&show=&ticket= is the
 * partner's entry: a page of our own that joins the show's room as the session (the ticket must
 * name exactly this session and show, be unexpired, and the browser must own the session).
 * POST /extend {sessionId} renews the session's lease; 422 once it has ended (the page stops).
 */
export const externalRoutes = new Hono<AppEnv>()
  .get('/vxm', async (c) => {
    const q = c.req.query();
    const showId = /^\d{1,9}$/.test(q.show ?? '') ? Number(q.show) : 0;
    const refused = (status: 403 | 410, code: string) => framePage(c, { status: code, show: null, answer: null }, status);
    const ticket = showId ? await verifyFrameTicket(c.env, q.ticket, q.session, showId) : null;
    if (!ticket) return refused(403, 'invalid');
    const s = await findSession(c.env.DB, ticket.sub);
    const show = s && s.show_id === showId ? await showById(c.env.DB, showId) : null;
    if (!s || !show || !isExternal(show) || !ownsSession(c, s)) return refused(403, 'invalid');
    if (s.state === 'ended') return refused(410, 'ended');
    const password = await signRoomToken(c.env, { sub: s.id, show: show.id, role: s.user_id ? 'member' : 'guest', uid: s.user_id, login: s.user_id ? c.get('loginId') : null });
    return framePage(c, {
      status: 'ok',
      show: { id: show.id, universalId: show.universal_id, contentproviderId: show.contentprovider_id, name: show.name },
      answer: { realm: realmOf(c, show.id), login: s.id, password, sessionId: s.id, session_type: s.type, nickname: s.nick, price: s.price, voicecall: s.phone_billing_id !== null },
    });
  })
  .post('/extend', zValidator('json', sessionBody, validationHook), async (c) => {
    const { sessionId } = c.req.valid('json');
    const s = await ownExternal(c, sessionId);
    if (!s) throw new ApiError(422, 'chat.no_session', { sessionId: ['chat.no_session'] });
    const ended = () => new ApiError(422, 'chat.session_ended', { sessionId: ['chat.session_ended'] });
    if (s.state === 'ended') throw ended();
    const lease = await roomOf(c.env, s.show_id).extend(s.id);
    if (!lease) throw ended();
    c.header('Cache-Control', 'no-store');
    return c.json<ExternalExtendAnswer>({ sessionId: s.id, lease_ms: lease.leaseMs, lease_until: lease.leaseUntil, session: lease.session });
  });

/** The session id from an end call's body: JSON, sent as application/json or (by sendBeacon) text/plain. */
function endBody(text: string): string {
  let v: unknown;
  try {
    v = text.length <= 4096 ? JSON.parse(text) : null;
  } catch {
    v = null;
  }
  if (!v || typeof v !== 'object') throw new ApiError(422, 'invalid_body');
  refuseControlCharacters(v);
  const parsed = sessionBody.safeParse(v);
  if (!parsed.success) throw new ApiError(422, 'chat.no_session', { sessionId: ['chat.no_session'] });
  return parsed.data.sessionId;
}

/**
 * POST /api/chat/external/end {sessionId}: the session's owner ends it; ending twice answers the
 * ended session again. With `?beacon=1` (navigator.sendBeacon on page hide, which cannot send the
 * CSRF header) the CSRF check is skipped: the call still needs the owner's cookie session (a
 * cross-site POST carries no SameSite=Lax cookie), the unguessable session id, and no foreign
 * Origin. Mounted before the CSRF middleware; without the flag it runs the same check itself.
 */
export const externalEndRoutes = new Hono<AppEnv>().post(
  '/',
  async (c, next) => (c.req.query('beacon') === '1' ? next() : csrf(c, next)),
  async (c) => {
    if (!socketOriginAllowed(c)) throw new ApiError(403, 'origin_forbidden');
    const s = await ownExternal(c, endBody(await c.req.text()));
    if (!s) throw new ApiError(404, 'not_found');
    if (s.state !== 'ended') {
      const view = await roomOf(c.env, s.show_id).end(s.id, 'member');
      if (!view) await endSessionRow(c.env.DB, s.id, 'member', Date.now());
    }
    const after = await findSession(c.env.DB, s.id);
    c.header('Cache-Control', 'no-store');
    return c.json({ session: rowView(after ?? s) });
  },
);
