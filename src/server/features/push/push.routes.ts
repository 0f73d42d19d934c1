import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { pushEndpointBody, pushKindsBody, pushRenewBody, pushSubscribeBody, type PushSubscriptionAnswer } from '../../../shared/push';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { timingSafeEqual } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { recordPlaceOfEndpoint, recordPlaceStatement } from '../../lib/member-place.repo';
import { validationHook } from '../../lib/validation';
import { bodyGuard } from '../../middleware/body';
import { geo } from '../../middleware/geo';
import { requireUser } from '../session/session.service';
import { authOf, deleteOwnSubscription, ownSubscription, renewSubscription, updateKinds, upsertSubscription } from './push.repo';
import { isPushService, vapidKeys } from './push.service';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * /api/push: the VAPID public key (the browser's applicationServerKey), and the member's opt-in
 * of this browser (its subscription) with the kinds it wants. A member reads and changes only
 * subscriptions of their own; anyone else's endpoint answers 404.
 */
export const pushRoutes = new Hono<AppEnv>()
  .get('/key', (c) => c.json({ publicKey: vapidKeys(c.env)?.publicKey ?? null }))
  .use('/subscription', requireUser)
  // The endpoint is a query parameter here: a GET has no body. It is only compared, never fetched.
  .get('/subscription', async (c) => {
    const endpoint = c.req.query('endpoint') ?? '';
    const subscription = endpoint ? await ownSubscription(c.env.DB, c.var.member.id, endpoint) : null;
    return c.json<PushSubscriptionAnswer>({ subscription }, 200, NO_STORE);
  })
  .post('/subscription', zValidator('json', pushSubscribeBody, validationHook), async (c) => {
    const body = c.req.valid('json');
    if (!isPushService(c.env, body.endpoint)) throw new ApiError(422, 'validation_failed', { endpoint: ['not_push_service'] });
    const now = nowSeconds();
    const subscription = await upsertSubscription(c.env.DB, c.var.member.id, { endpoint: body.endpoint, ...body.keys, kinds: body.kinds }, now);
    // The member's last known place: favourite-online notices skip members where the show is hidden (geo-blocking).
    await recordPlaceStatement(c.env.DB, c.var.member.id, c.get('place'), now)?.run();
    return c.json<PushSubscriptionAnswer>({ subscription }, 201, NO_STORE);
  })
  .patch('/subscription', zValidator('json', pushKindsBody, validationHook), async (c) => {
    const { endpoint, kinds } = c.req.valid('json');
    const subscription = await updateKinds(c.env.DB, c.var.member.id, endpoint, kinds);
    if (!subscription) throw new ApiError(404, 'not_found');
    return c.json<PushSubscriptionAnswer>({ subscription }, 200, NO_STORE);
  })
  .delete('/subscription', zValidator('json', pushEndpointBody, validationHook), async (c) => {
    if (!(await deleteOwnSubscription(c.env.DB, c.var.member.id, c.req.valid('json').endpoint))) throw new ApiError(404, 'not_found');
    return c.json<PushSubscriptionAnswer>({ subscription: null }, 200, NO_STORE);
  });

/**
 * /api/push/renew: the service worker's pushsubscriptionchange. It runs without a page, so without
 * the CSRF token: the old subscription's auth secret is the credential (like a WHIP stream key), and
 * nothing but the endpoint and keys of that one subscription can change. Mounted before the session
 * (the body is capped and checked as every other /api body). The request's place becomes the
 * member's last known place (geo-blocking), as at a login or a subscribe.
 */
export const pushRenewRoutes = new Hono<AppEnv>().use(bodyGuard, geo).post('/', zValidator('json', pushRenewBody, validationHook), async (c) => {
  const body = c.req.valid('json');
  if (!isPushService(c.env, body.endpoint)) throw new ApiError(422, 'validation_failed', { endpoint: ['not_push_service'] });
  const stored = await authOf(c.env.DB, body.old_endpoint);
  if (!stored || !timingSafeEqual(stored, body.old_auth)) throw new ApiError(404, 'not_found');
  const renewed = await renewSubscription(c.env.DB, { endpoint: body.old_endpoint, auth: stored }, { endpoint: body.endpoint, ...body.keys });
  if (!renewed) throw new ApiError(404, 'not_found');
  await recordPlaceOfEndpoint(c.env.DB, body.endpoint, c.get('place'), nowSeconds());
  return c.json({ renewed: true }, 200, NO_STORE);
});
