import { Hono } from 'hono';
import { withoutHidden } from '../../lib/geo-hidden';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { socketOriginAllowed } from '../../lib/origin';
import { verifyRoomToken } from '../../lib/room-token';
import { roomOf } from './chat.service';
import type { RoomIdentity } from './room/show-room';
import { loginAlive } from '../session/session.service';
import { chatHistory, performerShow } from './chat.repo';
import { shardStub } from './room/fanout';

/**
 * GET /api/chatroom/{showId}?login=...&password=...: joins the show's room. The token must be
 * valid, unexpired, for THIS show and for the session named by login; the room then checks that
 * the session is still running.
 */
export const chatRoomRoutes = new Hono<AppEnv>().get('/:showId', async (c) => {
  if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(426, 'upgrade_required');
  if (!socketOriginAllowed(c)) throw new ApiError(403, 'origin_forbidden');
  const raw = c.req.param('showId');
  if (!/^\d{1,9}$/.test(raw)) throw new ApiError(404, 'not_found');
  const showId = Number(raw);
  const claims = await verifyRoomToken(c.env, c.req.query('password'), showId);
  if (!claims || claims.sub !== c.req.query('login')) throw new ApiError(401, 'chat.bad_token');
  // A member's or performer's token dies with the login it was issued to (logout, password change).
  if (claims.uid !== null && !(await loginAlive(c.env.DB, claims.uid, claims.login))) throw new ApiError(401, 'chat.bad_token');
  // A performer token stops working once the account is no longer this show's performer.
  if (claims.role === 'performer' && (claims.uid === null || (await performerShow(c.env.DB, claims.uid)) !== showId)) throw new ApiError(401, 'chat.bad_token');
  const identity: RoomIdentity = { role: claims.role, sub: claims.sub, uid: claims.uid, login: claims.login ?? null };
  const room = roomOf(c.env, showId);
  if (identity.role === 'performer') {
    const headers = new Headers(c.req.raw.headers);
    headers.set('X-Room-Identity', JSON.stringify(identity));
    return room.fetch(new Request('https://room/connect', { headers }));
  }
  // A viewer's socket is made on its session's shard, not through the room (one hop less for every
  // frame); the room admits it first. 409: the shard no longer holds what the welcome missed.
  for (let attempt = 0; ; attempt++) {
    const admitted = await room.admit(identity);
    if (!admitted) throw new ApiError(410, 'chat.session_ended');
    const res = await shardStub(c.env, showId, admitted.shard).fetch('https://shard/join', { headers: { Upgrade: 'websocket', 'X-Shard-Join': admitted.header } });
    if (res.status !== 409 || attempt === 2) return res;
  }
});

/** GET /api/user/chathistory: the member's sessions, newest first; guests get none. */
export const chatHistoryRoutes = new Hono<AppEnv>().get('/', async (c) => {
  c.header('Cache-Control', 'no-store');
  const user = c.get('user');
  if (!user) return c.json({ data: [] });
  // Sessions with shows hidden from the member's place now (geo-blocking) are left out.
  const rows = withoutHidden(await chatHistory(c.env.DB, user.id), await c.var.hiddenShows(), (r) => r.show_id);
  return c.json({
    data: rows.map((r) => ({
      sessionId: r.id,
      showId: r.show_id,
      showName: r.show_name,
      universalId: r.universal_id,
      slugName: r.slug_name,
      type: r.type,
      created_at: r.created_at,
      started_at: r.started_at,
      ended_at: r.ended_at,
      end_reason: r.end_reason,
      minutes: r.minutes,
      coins: r.coins,
      tips: r.tips,
    })),
  });
});
