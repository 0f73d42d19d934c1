import { Hono } from 'hono';
import { AccountPage, AccountSearchPage, AppealsPage } from '../../../client/features/operator/account-pages';
import { OPERATOR_APPEALS_PATH, OPERATOR_USERS_PATH } from '../../../shared/operator';
import { accountSearchSchema } from '../../../shared/restrictions';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { idParam } from '../../lib/params';
import { accountSummary, appealQueue, findAccounts } from '../restrictions/restrictions.service';
import { contentAppealQueue } from '../restrictions/content-appeals.service';
import { page } from './operator.pages';

/** /operator/users (search), /operator/users/:id (an account, restrict and lift), /operator/appeals (the queues: against restrictions and against removed uploads). */
export const operatorAccountPages = new Hono<AppEnv>()
  .get('/users', (c) =>
    page(c, OPERATOR_USERS_PATH, c.get('t')('operator.accounts.title'), async () => {
      const q = accountSearchSchema.safeParse(c.req.query('q') ?? '');
      return <AccountSearchPage q={q.success ? q.data : ''} hits={q.success ? await findAccounts(c.env.DB, q.data) : []} />;
    }),
  )
  .get('/users/:id{[0-9]+}', (c) =>
    page(c, c.req.path, c.get('t')('operator.accounts.title'), async () => {
      const account = await accountSummary(c.env.DB, (idParam.parse(c.req.param('id')) ?? 0));
      if (!account) throw new ApiError(404, 'not_found');
      return <AccountPage account={account} />;
    }),
  )
  .get('/appeals', (c) => page(c, OPERATOR_APPEALS_PATH, c.get('t')('operator.appeals.title'), async () => {
    const [appeals, contentAppeals] = await Promise.all([appealQueue(c.env.DB), contentAppealQueue(c.env.DB)]);
    return <AppealsPage appeals={appeals} contentAppeals={contentAppeals} />;
  }));
