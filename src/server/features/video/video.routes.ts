import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { verifyRoomToken } from '../../lib/room-token';
import { roomOf } from '../chat/chat.service';
import type { IceAnswer } from './video-room.service';
import { videoRelayKind } from './video-engines';
import { loginAlive } from '../session/session.service';

/**
 * GET /api/video/ice?show={id}&login={sub}&password={room token}: the STUN/TURN servers for a
 * browser in that show's room (the one place they come from: ICE_SERVERS with the peer-to-peer
 * engine, short-lived TURN credentials from Cloudflare's TURN key API with the SFU, issued once
 * per room and shared for ICE_SHARE_MS, port-53 URLs dropped). TURN
 * credentials cost money and are to be used: only the performer and a session the room sends
 * video to now (its video plan: a paid session, free chat where the show is free to watch) get
 * them; any other room token (a guest while a private runs, a viewer past the cap) is a 403.
 */
export const videoRoutes = new Hono<AppEnv>().get('/ice', async (c) => {
  c.header('Cache-Control', 'no-store');
  const raw = c.req.query('show') ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw new ApiError(422, 'validation_failed', { show: ['invalid'] });
  const claims = await verifyRoomToken(c.env, c.req.query('password'), Number(raw));
  if (!claims || claims.sub !== c.req.query('login')) throw new ApiError(401, 'chat.bad_token');
  // As at the room's door: a member's or performer's token dies with its login (logout, password change).
  if (claims.uid !== null && !(await loginAlive(c.env.DB, claims.uid, claims.login))) throw new ApiError(401, 'chat.bad_token');
  const performer = claims.role === 'performer' && claims.sub === 'performer';
  let answer: IceAnswer | null | 'unavailable';
  try {
    videoRelayKind(c.env); // a misconfigured engine answers 503 here, whatever a running room built before
    answer = await roomOf(c.env, claims.show).videoIce(performer ? 'performer' : claims.sub);
  } catch (e) {
    console.error('video: ice servers', (e as Error).message);
    answer = 'unavailable';
  }
  if (answer === 'unavailable') throw new ApiError(503, 'video.unavailable');
  if (!answer) throw new ApiError(403, 'video.not_permitted');
  return c.json(answer);
});
