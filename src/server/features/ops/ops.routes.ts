import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { timingSafeEqual } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { announceCoins, markRefunded, refundQueue } from '../billing/billing.service';
import type { LatePaymentRow } from '../billing/late-payments.repo';
import { applyLedger } from '../../lib/ledger.repo';
import { changeShowStatus } from '../shows/shows.service';
import { syncRoom } from '../chat/chat.service';
import type { CoinsAnswer, ShowStatusAnswer } from '../../../shared/api';
import { appointOperator, auditToken, resetSecondFactor } from '../operator/operator.service';

/** Operator calls authenticate with `Authorization: Bearer <OPS_TOKEN>`; no token configured, no access. */
const operator = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.OPS_TOKEN;
  const given = (c.req.header('Authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!expected || !timingSafeEqual(given, expected)) throw new ApiError(401, 'unauthenticated');
  await next();
});

const idParam = z.object({ id: z.string().regex(/^\d{1,9}$/, 'id_invalid') });

/** Until performers go live themselves: operators (and tests) switch a show on or off. */
export const opsRoutes = new Hono<AppEnv>()
  .use(operator)
  // Support's manual corrections go through the ledger like everything else.
  .post(
    '/users/:id/coins',
    zValidator('param', idParam, validationHook),
    zValidator(
      'json',
      z.object({
        amount: z.number().int('amount_invalid').refine((n) => n !== 0 && Math.abs(n) <= 1_000_000, 'amount_invalid'),
        ref: z.string().min(1, 'ref_invalid').max(100, 'ref_invalid'),
      }),
      validationHook,
    ),
    async (c) => {
      const userId = Number(c.req.valid('param').id);
      const { amount, ref } = c.req.valid('json');
      const result = await applyLedger(c.env.DB, { userId, amount, reason: 'adjust', ref: `ops:${ref}` });
      if (!result.ok) {
        if (result.error === 'no_user') throw new ApiError(404, 'not_found');
        throw new ApiError(result.error === 'duplicate' ? 409 : 422, result.error, undefined);
      }
      await auditToken(c.env.DB, { action: 'coins.adjust', target: `user:${userId}`, detail: { amount, ref } });
      c.executionCtx.waitUntil(announceCoins(c.env, userId, result.coins));
      return c.json<CoinsAnswer>({ coins: result.coins });
    },
  )
  // Payments that came too late (a failed, cancelled or expired checkout, or past the daily limit)
  // were never credited: the operator refunds them at the provider and marks them here.
  .get('/late-payments', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json<{ data: LatePaymentRow[] }>({ data: await refundQueue(c.env.DB) });
  })
  .post('/late-payments/:id/refunded', zValidator('param', idParam, validationHook), async (c) => {
    const billingId = Number(c.req.valid('param').id);
    if (!(await markRefunded(c.env.DB, billingId))) throw new ApiError(404, 'not_found');
    await auditToken(c.env.DB, { action: 'payment.late_refunded', target: `billing:${billingId}` });
    return c.json({ billing_id: billingId, state: 'refunded' as const });
  })
  .post(
    '/shows/:id/status',
    zValidator('param', idParam, validationHook),
    zValidator('json', z.object({ online: z.boolean() }), validationHook),
    async (c) => {
      const id = Number(c.req.valid('param').id);
      const { online } = c.req.valid('json');
      if ((await changeShowStatus(c.env, [{ id, online }], (w) => c.executionCtx.waitUntil(w))).length === 0) throw new ApiError(404, 'not_found');
      await syncRoom(c.env, id);
      await auditToken(c.env.DB, { action: online ? 'show.online' : 'show.offline', target: `show:${id}` });
      return c.json<ShowStatusAnswer>({ id, online });
    },
  )
  // The deploy's token appoints operators (the first one, and any after); an operator who lost their
  // authenticator has it reset here and enrols again at their next visit.
  .post('/operators', zValidator('json', z.object({ user_id: z.number().int().positive('id_invalid') }), validationHook), async (c) => {
    const userId = c.req.valid('json').user_id;
    if (!(await appointOperator(c.env.DB, userId))) throw new ApiError(409, 'operator_exists_or_no_user');
    return c.json({ user_id: userId, operator: true }, 201);
  })
  .delete('/operators/:id/second-factor', zValidator('param', idParam, validationHook), async (c) => {
    const userId = Number(c.req.valid('param').id);
    if (!(await resetSecondFactor(c.env.DB, userId))) throw new ApiError(404, 'not_found');
    return c.json({ user_id: userId, second_factor: false });
  });
