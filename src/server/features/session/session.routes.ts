import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { incentiveSchema, vidSchema } from '../../../shared/accounts';
import { WELCOME_BONUS_PERCENT } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { confirmSplash, ensureSession, updateSessionRow } from './session.service';
import { sessionWrite } from './session-limits';
import { nowSeconds } from '../../lib/clock';
import { validationHook } from '../../lib/validation';
import { markWelcomeShown, welcomeVideoId } from './session.repo';
import type { IncentiveAnswer, SessionAnswer, SplashAnswer } from '../../../shared/api';


export const sessionRoutes = new Hono<AppEnv>()
  // A GET never changes what the session does: the page query is not stored (redirect_splash is
  // set by the server for a campaign or partner entry, never from a query).
  .get('/init', async (c) => {
    await ensureSession(c);
    return c.json<SessionAnswer>({ session: c.get('session'), user: c.get('user') });
  })
  .get('/splash18', (c) => c.json<SplashAnswer>({ splash18_confirmed: c.get('session').splash18_confirmed }))
  // The spec leaves the confirming call unnamed; this is it. The device cookie outlives sessions.
  .post('/splash18', sessionWrite, async (c) => {
    await confirmSplash(c);
    return c.json<SessionAnswer>({ session: c.get('session') });
  })
  .post('/vid', sessionWrite, zValidator('json', vidSchema, validationHook), async (c) => {
    const { vid, confidence } = c.req.valid('json');
    await updateSessionRow(c, { visitor_id: vid, vid_confidence: confidence });
    return c.json<SessionAnswer>({ session: c.get('session') });
  })
  .post('/welcome_shown', sessionWrite, async (c) => {
    await updateSessionRow(c, { welcome_shown: 1 });
    // Remembered for the member too, so the next session (every login) does not show it again.
    const userId = c.get('user')?.id;
    if (userId) await markWelcomeShown(c.env.DB, userId, nowSeconds());
    return c.json<SessionAnswer>({ session: c.get('session') });
  })
  .post('/incentive_tsp', sessionWrite, zValidator('json', incentiveSchema, validationHook), async (c) => {
    c.req.valid('json');
    const current = c.get('session').incentive_tsp;
    // The first showing wins, so reloading cannot restart the countdown. Its start is the
    // server's clock, not the client's: the welcome offer's window (first purchase +20%) is
    // decided from it, so a client cannot move it.
    if (current === null) await updateSessionRow(c, { incentive_tsp: nowSeconds() });
    const tsp = c.get('session').incentive_tsp ?? nowSeconds();
    return c.json<IncentiveAnswer>({ incentive_tsp: tsp, now: nowSeconds(), video_id: await welcomeVideoId(c.env.DB), voucher_percent: WELCOME_BONUS_PERCENT, session: c.get('session') });
  });
