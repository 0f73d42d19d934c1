import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { clientIp } from '../session/session.service';
import { ApiError } from '../../lib/errors';
import { placeCodes } from '../../../shared/geo';
import { connectToLobby, socketCaps, startSimulator } from '../../realtime/shards';
import { releaseSocket, reserveSocket } from '../../realtime/sockets.repo';

/** The origins our pages are served from: this request's own, and the configured public one. */
function ownOrigins(c: Context<AppEnv>): Set<string> {
  const origins = new Set([new URL(c.req.url).origin]);
  try {
    if (c.env.PUBLIC_ORIGIN) origins.add(new URL(c.env.PUBLIC_ORIGIN).origin);
  } catch {
    // a malformed setting adds nothing
  }
  return origins;
}

/**
 * A browser always names the page that opens a socket (Origin); another site's page may not open
 * one with the visitor's cookies (cross-site WebSocket hijacking). Clients that are not browsers
 * send none and carry no visitor's cookies by accident.
 */
function originAllowed(c: Context<AppEnv>): boolean {
  const origin = c.req.header('Origin');
  return origin === undefined || ownOrigins(c).has(origin);
}

/** Every open page joins the live lobby once here (partysocket reconnects by itself). */
export const realtimeRoutes = new Hono<AppEnv>().get('/', async (c) => {
  if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(426, 'upgrade_required');
  if (!originAllowed(c)) throw new ApiError(403, 'origin_forbidden');
  const db = c.env.DB;
  const slot = await reserveSocket(db, { sessionId: c.get('cookieSessionId') ?? c.get('sessionId'), address: clientIp(c) }, socketCaps(c.env));
  if (!slot) throw new ApiError(429, 'too_many_sockets', undefined, { 'Retry-After': '30' });
  if (c.env.SIMULATOR === '1') c.executionCtx.waitUntil(startSimulator(c.env).catch(() => undefined));
  let res: Response;
  try {
    res = await connectToLobby(c.env, c.req.raw, c.get('user')?.id ?? null, slot, c.get('loginId'), placeCodes(c.var.place));
  } catch (err) {
    await releaseSocket(db, slot);
    throw err;
  }
  // Only an accepted socket keeps its slot; its shard releases it when it closes.
  if (res.status !== 101) await releaseSocket(db, slot);
  return res;
});
