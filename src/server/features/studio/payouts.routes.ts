import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { PAYOUT_MIN_COINS, type StudioPayouts } from '../../../shared/payouts';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { earningsByDay, payoutSummary, payoutsWhere, requestPayout } from '../../lib/payouts.repo';
import { validationHook } from '../../lib/validation';
import { requirePerformer } from './studio.routes';

const showOf = (u: { performer_show: number | null } | null): number => u?.performer_show ?? 0;

/** /api/studio/payouts: the performer's earnings by day and source, what may be paid out, and a request for it. */
export const payoutRoutes = new Hono<AppEnv>()
  .use(requirePerformer)
  .get('/', async (c) => {
    const show = showOf(c.get('user'));
    const [summary, byDay, payouts] = await Promise.all([payoutSummary(c.env.DB, show), earningsByDay(c.env.DB, show, 30), payoutsWhere(c.env.DB, { showId: show })]);
    return c.json<StudioPayouts>({ ...summary, minimum: PAYOUT_MIN_COINS, by_day: byDay, payouts: payouts.reverse() });
  })
  .post(
    '/',
    zValidator('json', z.object({ amount: z.number({ message: 'amount_invalid' }).int('amount_invalid').min(PAYOUT_MIN_COINS, 'payout_below_minimum').max(100_000_000, 'amount_invalid') }), validationHook),
    async (c) => {
      const show = showOf(c.get('user'));
      const res = await requestPayout(c.env.DB, show, c.get('user')!.id, c.req.valid('json').amount, nowSeconds());
      if (!res.ok) throw new ApiError(422, 'validation_failed', { amount: [res.error === 'open_request' ? 'payout_open_request' : 'payout_over_payable'] });
      return c.json({ id: res.id, ...(await payoutSummary(c.env.DB, show)) }, 201);
    },
  );
