import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { newBatch, payoutsWhere, payPayout, rejectPayout } from '../../lib/payouts.repo';
import { validationHook } from '../../lib/validation';
import { audit, requireOperator } from './operator.service';
import { chatRefundTarget, purchaseRefundTarget } from './operator.repo';
import { refundSpend } from '../../lib/reversals.repo';

// The operators' money (issue 29 points 5 and 6): a refund of a purchase or a chat through the
// ledger, and performers' payout requests paid in batches with an exported statement (CSV).

const reason = z.string().trim().min(5, 'reason_too_short').max(1000, 'reason_too_long');
const id = z.number({ message: 'id_invalid' }).int('id_invalid').positive('id_invalid');

const csvCell = (v: string | number | null) => {
  const s = String(v ?? '');
  // Quoted, and a leading = + - @ made text: a spreadsheet never runs a cell as a formula.
  return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
};

export const operatorMoneyRoutes = new Hono<AppEnv>()
  .use(requireOperator())
  .post(
    '/refunds',
    zValidator('json', z.discriminatedUnion('kind', [z.object({ kind: z.literal('purchase'), id, reason }), z.object({ kind: z.literal('chat'), id: z.string().regex(/^[\w-]{6,64}$/, 'id_invalid'), reason })], { message: 'kind_invalid' }), validationHook),
    async (c) => {
      const body = c.req.valid('json');
      const db = c.env.DB;
      const now = nowSeconds();
      // What is refunded: the purchase's payment (and the item is no longer the member's), or every paid minute of an ended chat.
      const target = body.kind === 'purchase' ? await purchaseRefundTarget(db, body.id) : await chatRefundTarget(db, String(body.id));
      if (!target) throw new ApiError(404, 'not_found');
      if ('refusal' in target) throw new ApiError(409, target.refusal);
      const res = await refundSpend(db, target.match, now, target.extra);
      if (!res.ok) throw new ApiError(409, res.error === 'duplicate' ? 'already_refunded' : 'nothing_to_refund');
      await audit(c, { action: `refund.${body.kind}`, target: `${body.kind}:${body.id}`, reason: body.reason, detail: { user: target.match.userId, rows: res.refunded } });
      return c.json({ refunded: true, coins: res.coins });
    },
  )
  .get('/payouts', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !['requested', 'paid', 'rejected'].includes(state)) throw new ApiError(422, 'validation_failed', { state: ['state_invalid'] });
    return c.json({ data: await payoutsWhere(c.env.DB, { state }) });
  })
  .post('/payouts/pay', zValidator('json', z.object({ ids: z.array(id).min(1, 'ids_required').max(200, 'ids_too_many') }), validationHook), async (c) => {
    const db = c.env.DB;
    const me = c.get('user')!.id;
    const now = nowSeconds();
    const wanted = new Set(c.req.valid('json').ids);
    const open = (await payoutsWhere(db, { state: 'requested' }, 1000)).filter((p) => wanted.has(p.id));
    if (open.length === 0) throw new ApiError(409, 'nothing_to_pay');
    const batch = await newBatch(db, me, now);
    const results: Record<number, string> = {};
    for (const p of open) results[p.id] = await payPayout(db, p, batch, me, now);
    for (const i of wanted) results[i] ??= 'not_requested';
    await audit(c, { action: 'payouts.paid', target: `batch:${batch}`, detail: { results } });
    return c.json({ batch_id: batch, results });
  })
  .post('/payouts/:id{[0-9]+}/reject', zValidator('json', z.object({ reason }), validationHook), async (c) => {
    const payout = Number(c.req.param('id'));
    if (!(await rejectPayout(c.env.DB, payout, c.get('user')!.id, c.req.valid('json').reason, nowSeconds()))) throw new ApiError(409, 'not_requested');
    await audit(c, { action: 'payout.rejected', target: `payout:${payout}`, reason: c.req.valid('json').reason });
    return c.json({ id: payout, state: 'rejected' });
  })
  // The batch's statement: one line per payout paid in it, with its ledger reference.
  .get('/payouts/batches/:id{[0-9]+}', async (c) => {
    const batch = Number(c.req.param('id'));
    const rows = (await payoutsWhere(c.env.DB, { batchId: batch, state: 'paid' }, 10_000)).map((p) => [p.id, p.show_id, p.show_name, p.user_id, p.amount, `payout:${p.id}`, new Date((p.decided_at ?? 0) * 1000).toISOString()]);
    if (rows.length === 0) throw new ApiError(404, 'not_found');
    const csv = [['payout', 'show', 'show_name', 'performer_user', 'coins', 'ledger_ref', 'paid_at'], ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n');
    return c.body(`${csv}\r\n`, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="payouts-batch-${batch}.csv"` });
  });
