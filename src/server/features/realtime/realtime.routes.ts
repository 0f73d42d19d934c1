import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { connectToLobby, startSimulator } from '../../realtime/shards';

/** Every open page joins the live lobby once here (partysocket reconnects by itself). */
export const realtimeRoutes = new Hono<AppEnv>().get('/realtime', async (c) => {
  if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(426, 'upgrade_required');
  if (c.env.SIMULATOR === '1') c.executionCtx.waitUntil(startSimulator(c.env).catch(() => undefined));
  return connectToLobby(c.env, c.req.raw, c.get('user')?.id ?? null);
});
