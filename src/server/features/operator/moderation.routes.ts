import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { MODERATION_REASON_MAX, MODERATION_REASON_MIN, type ModerationDecisionAnswer, type ModerationKind, type ModerationQueueAnswer } from '../../../shared/moderation';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { mailModerationDecision } from './moderation-mail';
import { decideReview, pendingWithoutRecords, reviewQueue, toModerationItem } from './moderation.repo';
import { audit, requireOperator } from './operator.service';

// /api/operator/moderation (issue 29 point 2): complete uploads wait for an operator; approved
// ones reach the store, rejected ones stay with their performer with the reason (the studio's
// uploads card shows both) and are mailed to the show's performer. Every decision is in the audit trail.

const decisionBody = z.discriminatedUnion(
  'decision',
  [
    z.object({ decision: z.literal('approve'), reason: z.string().max(MODERATION_REASON_MAX, 'reason_too_long').optional() }),
    z.object({
      decision: z.literal('reject'),
      reason: z.string({ message: 'reason_required' }).trim().min(MODERATION_REASON_MIN, 'reason_too_short').max(MODERATION_REASON_MAX, 'reason_too_long'),
    }),
  ],
  { message: 'decision_invalid' },
);

export const operatorModerationRoutes = new Hono<AppEnv>()
  .use('/moderation/*', requireOperator())
  .use('/moderation', requireOperator())
  .get('/moderation', async (c) => c.json<ModerationQueueAnswer>({ data: (await reviewQueue(c.env.DB)).map(toModerationItem) }))
  .post('/moderation/:kind{video|gallery}/:id{[0-9]{1,9}}', zValidator('json', decisionBody, validationHook), async (c) => {
    const kind = c.req.param('kind') as ModerationKind;
    const id = Number(c.req.param('id'));
    const body = c.req.valid('json');
    const review = body.decision === 'approve' ? 'approved' : 'rejected';
    const reason = body.decision === 'reject' ? body.reason : null;
    const decided = await decideReview(c.env.DB, kind, id, review, reason, c.get('user')!.id, nowSeconds());
    if (!decided) throw new ApiError(409, review === 'approved' && (await pendingWithoutRecords(c.env.DB, kind, id)) ? 'no_performer_records' : 'not_pending');
    await audit(c, { action: `moderation.${review}`, target: `${kind}:${id}`, reason: reason ?? undefined, detail: { show: decided.show_id, title: decided.title_en } });
    await mailModerationDecision(c.env, decided, review, reason);
    return c.json<ModerationDecisionAnswer>({ kind, id, review });
  });
