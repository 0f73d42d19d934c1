import { Hono } from 'hono';
import { ReportsPage } from '../../../client/features/operator/reports-page';
import { OPERATOR_REPORTS_PATH } from '../../../shared/reports';
import type { AppEnv } from '../../env';
import { reportQueue } from '../reports/reports.service';
import { page } from './operator.pages';

/** /operator/reports: the queue of open reports, oldest first, with their age and the 7-day flag. */
export const operatorReportPages = new Hono<AppEnv>().get('/reports', (c) =>
  page(c, OPERATOR_REPORTS_PATH, c.get('t')('operator.reports.title'), async () => <ReportsPage reports={await reportQueue(c.env.DB)} />),
);
