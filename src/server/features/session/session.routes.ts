import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { incentiveSchema, vidSchema } from '../../../shared/accounts';
import { SPLASH_COOKIE, WELCOME_BONUS_PERCENT } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { isHttps, issueSessionCookie, nowSeconds } from './session.service';
import { anonymousWrite } from '../../lib/limits';
import { validationHook } from '../../lib/validation';
import { createSession, markWelcomeShown, toWireSession, updateSession, type SessionRow } from './session.repo';

const YEAR = 365 * 86_400;
/** Session writes (splash, visitor id, welcome, countdown) per client address and hour: a visitor makes a few. */
const SESSION_WRITES_PER_ADDRESS = 300;
const SESSION_BODY_MAX = 4 * 1024;
const sessionWrite = anonymousWrite('session', SESSION_WRITES_PER_ADDRESS, SESSION_BODY_MAX);

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
  c.set('session', wireSession(c, row));
  return id;
}

/**
 * The session as answered after a change of its row. A member who was welcomed before stays
 * welcomed, whatever this session's row says (every login starts a new session).
 */
function wireSession(c: Context<AppEnv>, row: SessionRow) {
  return toWireSession(row, c.get('memberWelcomed') ? { welcome_dialog: null } : {});
}

async function update(c: Context<AppEnv>, fields: Parameters<typeof updateSession>[2]): Promise<SessionRow | null> {
  const id = await ensureSession(c);
  const row = await updateSession(c.env.DB, id, fields);
  if (row) c.set('session', wireSession(c, row));
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
  .post('/session/splash18', sessionWrite, async (c) => {
    await update(c, { splash18_confirmed: 1 });
    setCookie(c, SPLASH_COOKIE, '1', { path: '/', sameSite: 'Lax', httpOnly: true, secure: isHttps(c), maxAge: YEAR });
    return c.json({ session: c.get('session') });
  })
  .post('/session/vid', sessionWrite, zValidator('json', vidSchema, validationHook), async (c) => {
    const { vid, confidence } = c.req.valid('json');
    await update(c, { visitor_id: vid, vid_confidence: confidence });
    return c.json({ session: c.get('session') });
  })
  .post('/session/welcome_shown', sessionWrite, async (c) => {
    await update(c, { welcome_shown: 1 });
    // Remembered for the member too, so the next session (every login) does not show it again.
    const userId = c.get('user')?.id;
    if (userId) await markWelcomeShown(c.env.DB, userId, nowSeconds());
    return c.json({ session: c.get('session') });
  })
  .post('/session/incentive_tsp', sessionWrite, zValidator('json', incentiveSchema, validationHook), async (c) => {
    c.req.valid('json');
    const current = c.get('session').incentive_tsp;
    // The first showing wins, so reloading cannot restart the countdown. Its start is the
    // server's clock, not the client's: the welcome offer's window (first purchase +20%) is
    // decided from it, so a client cannot move it.
    if (current === null) await update(c, { incentive_tsp: nowSeconds() });
    const tsp = c.get('session').incentive_tsp ?? nowSeconds();
    const video = await c.env.DB.prepare('SELECT id FROM videos ORDER BY rating DESC, id LIMIT 1').first<{ id: number }>();
    return c.json({ incentive_tsp: tsp, now: nowSeconds(), video_id: video?.id ?? null, voucher_percent: WELCOME_BONUS_PERCENT, session: c.get('session') });
  });
