import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { verifyRoomToken } from '../../lib/room-token';
import { createVideoRelay } from '../../lib/video-engines';
import type { IceServersAnswer, VideoRelayKind } from '../../../shared/video';

/**
 * GET /api/video/ice?show={id}&login={sub}&password={room token}: the STUN/TURN servers for a
 * browser in that show's room (the one place they come from: ICE_SERVERS with the peer-to-peer
 * engine, short-lived TURN credentials from Cloudflare's TURN key API with the SFU). Only holders
 * of a valid room token get them: TURN credentials cost money.
 */
export const videoRoutes = new Hono<AppEnv>().get('/ice', async (c) => {
  c.header('Cache-Control', 'no-store');
  const raw = c.req.query('show') ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw new ApiError(422, 'validation_failed', { show: ['invalid'] });
  const claims = await verifyRoomToken(c.env, c.req.query('password'), Number(raw));
  if (!claims || claims.sub !== c.req.query('login')) throw new ApiError(401, 'chat.bad_token');
  try {
    const relay = createVideoRelay(c.env);
    const answer: IceServersAnswer & { relay: VideoRelayKind } = { ...(await relay.iceServers()), relay: relay.kind };
    return c.json(answer);
  } catch (e) {
    console.error('video: ice servers', (e as Error).message);
    throw new ApiError(503, 'video.unavailable');
  }
});
