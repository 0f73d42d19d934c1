import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { accountSearchSchema, decideContentAppealSchema, decideSchema, liftSchema, restrictSchema, type AccountHit, type AccountSummary, type OpenAppeal, type OpenContentAppeal } from '../../../shared/restrictions';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { idParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { accountSummary, appealQueue, decideAppeal, findAccounts, liftAccountRestriction, restrictAccount } from '../restrictions/restrictions.service';
import { contentAppealQueue, decideContentAppeal } from '../restrictions/content-appeals.service';
import { audit, requireOperator } from './operator.service';

// /api/operator: accounts, their bans and suspensions, and the appeals (issue 29 point 4). The
// door comes first on every route (a visitor's body is never read); each action is recorded
// with its reason in the audit trail.

/** A path id (digits by the route's pattern); past 9 digits no row has it (0). */
const pathId = (v: string) => idParam.parse(v) ?? 0;

export const operatorAccountRoutes = new Hono<AppEnv>()
  .get('/users', requireOperator(), async (c) => {
    const q = accountSearchSchema.safeParse(c.req.query('q') ?? '');
    return c.json<{ data: AccountHit[] }>({ data: q.success ? await findAccounts(c.env.DB, q.data) : [] });
  })
  .get('/users/:id{[0-9]+}', requireOperator(), async (c) => {
    const summary = await accountSummary(c.env.DB, pathId(c.req.param('id')));
    if (!summary) throw new ApiError(404, 'not_found');
    return c.json<AccountSummary>(summary);
  })
  .post('/users/:id{[0-9]+}/restrictions', requireOperator(), zValidator('json', restrictSchema, validationHook), async (c) => {
    const body = c.req.valid('json');
    const userId = pathId(c.req.param('id'));
    const r = await restrictAccount(c.env, c.get('user')!.id, userId, body);
    await audit(c, {
      action: r.kind === 'ban' ? 'account.banned' : 'account.suspended',
      target: `user:${userId}`,
      reason: body.reason,
      detail: { restriction: r.id, category: r.reason_category, ends_at: r.ends_at },
    });
    return c.json({ restriction: { id: r.id, kind: r.kind, ends_at: r.ends_at } }, 201);
  })
  .post('/restrictions/:id{[0-9]+}/lift', requireOperator(), zValidator('json', liftSchema, validationHook), async (c) => {
    const { reason } = c.req.valid('json');
    const r = await liftAccountRestriction(c.env, c.get('user')!.id, pathId(c.req.param('id')), reason);
    await audit(c, { action: 'restriction.lifted', target: `user:${r.user_id}`, reason, detail: { restriction: r.id, kind: r.kind } });
    return c.json({ lifted: true });
  })
  .get('/appeals', requireOperator(), async (c) => c.json<{ data: OpenAppeal[] }>({ data: await appealQueue(c.env.DB) }))
  // Appeals against removed or refused uploads: upheld, or reinstated (the item is approved again).
  .get('/content-appeals', requireOperator(), async (c) => c.json<{ data: OpenContentAppeal[] }>({ data: await contentAppealQueue(c.env.DB) }))
  .post('/content-appeals/:id{[0-9]+}/decide', requireOperator(), zValidator('json', decideContentAppealSchema, validationHook), async (c) => {
    const { outcome, answer } = c.req.valid('json');
    const appealId = pathId(c.req.param('id'));
    const d = await decideContentAppeal(c.env, c.get('user')!.id, appealId, outcome, answer);
    await audit(c, { action: `content_appeal.${outcome}`, target: `${d.kind}:${d.item_id}`, reason: answer, detail: { appeal: appealId, show: d.show_id } });
    return c.json({ outcome });
  })
  .post('/appeals/:id{[0-9]+}/decide', requireOperator(), zValidator('json', decideSchema, validationHook), async (c) => {
    const { outcome, answer } = c.req.valid('json');
    const appealId = pathId(c.req.param('id'));
    const r = await decideAppeal(c.env, c.get('user')!.id, appealId, outcome, answer);
    await audit(c, { action: `appeal.${outcome}`, target: `user:${r.user_id}`, reason: answer, detail: { appeal: appealId, restriction: r.id } });
    return c.json({ outcome });
  });
