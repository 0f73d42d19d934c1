import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { incentiveSchema, vidSchema } from '../../../shared/accounts';
import { SPLASH_COOKIE } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { isHttps, issueSessionCookie, nowSeconds } from '../../lib/auth';
import { validationHook } from '../../lib/validation';
import { createSession, toWireSession, updateSession, type SessionRow } from './session.repo';

const YEAR = 365 * 86_400;

/**
 * The session row for this request, created when the visitor has none: under the id of the
 * session cookie a page view issued, else under a new id with its cookie.
 */
export async function ensureSession(c: Context<AppEnv>): Promise<string> {
  const existing = c.get('sessionId');
  if (existing) return existing;
  const id = c.get('cookieSessionId') ?? (await issueSessionCookie(c));
  const row = await createSession(c.env.DB, id, {
    host: new URL(c.req.url).host,
    splash18_confirmed: c.get('session').splash18_confirmed,
    now: nowSeconds(),
  });
  c.set('sessionId', id);
  c.set('session', toWireSession(row));
  return id;
}

async function update(c: Context<AppEnv>, fields: Parameters<typeof updateSession>[2]): Promise<SessionRow | null> {
  const id = await ensureSession(c);
  const row = await updateSession(c.env.DB, id, fields);
  if (row) c.set('session', toWireSession(row));
  return row;
}

export const sessionRoutes = new Hono<AppEnv>()
  // A GET never changes what the session does: the page query is not stored (redirect_splash is
  // set by the server for a campaign or partner entry, never from a query).
  .get('/session/init', async (c) => {
    await ensureSession(c);
    return c.json({ session: c.get('session'), user: c.get('user') });
  })
  .get('/session/splash18', (c) => c.json({ splash18_confirmed: c.get('session').splash18_confirmed }))
  // The spec leaves the confirming call unnamed; this is it. The device cookie outlives sessions.
  .post('/session/splash18', async (c) => {
    await update(c, { splash18_confirmed: 1 });
    setCookie(c, SPLASH_COOKIE, '1', { path: '/', sameSite: 'Lax', httpOnly: true, secure: isHttps(c), maxAge: YEAR });
    return c.json({ session: c.get('session') });
  })
  .post('/session/vid', zValidator('json', vidSchema, validationHook), async (c) => {
    const { vid, confidence } = c.req.valid('json');
    await update(c, { visitor_id: vid, vid_confidence: confidence });
    return c.json({ session: c.get('session') });
  })
  .post('/session/welcome_shown', async (c) => {
    await update(c, { welcome_shown: 1 });
    return c.json({ session: c.get('session') });
  })
  .post('/session/incentive_tsp', zValidator('json', incentiveSchema, validationHook), async (c) => {
    const { incentive_tsp } = c.req.valid('json');
    const current = c.get('session').incentive_tsp;
    // The first timestamp wins, so reloading cannot restart the countdown.
    if (current === null) await update(c, { incentive_tsp });
    const tsp = c.get('session').incentive_tsp ?? incentive_tsp;
    const video = await c.env.DB.prepare('SELECT id FROM videos ORDER BY rating DESC, id LIMIT 1').first<{ id: number }>();
    return c.json({ incentive_tsp: tsp, video_id: video?.id ?? null, voucher_percent: 20, session: c.get('session') });
  });
