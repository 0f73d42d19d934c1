import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { resolveReportSchema, type ReportView } from '../../../shared/reports';
import type { AppEnv } from '../../env';
import { idParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { reportQueue, resolveReport } from '../reports/reports.service';
import { audit, requireOperator } from './operator.service';

// /api/operator/reports: the queue of open reports (oldest first, overdue after 7 days; ?state=resolved: the decided ones) and their
// resolution (issue 29 point 3), each recorded with its reason in the audit trail. A removal or a
// restriction is done where it is done (the account's page sends the statement of reasons); the
// outcome here records it and tells the reporter.

export const operatorReportRoutes = new Hono<AppEnv>()
  .get('/reports', requireOperator(), async (c) => {
    c.header('Cache-Control', 'no-store');
    // ?state=resolved lists the decided ones; anything else the open queue (a list never refuses a filter).
    return c.json<{ data: ReportView[] }>({ data: await reportQueue(c.env.DB, c.req.query('state') === 'resolved' ? 'resolved' : 'open') });
  })
  .post('/reports/:id{[0-9]+}/resolve', requireOperator(), zValidator('json', resolveReportSchema, validationHook), async (c) => {
    const { outcome, outcome_text } = c.req.valid('json');
    const r = await resolveReport(c.env, c.get('user')!.id, idParam.parse(c.req.param('id')) ?? 0, outcome, outcome_text);
    await audit(c, {
      action: `report.${outcome}`,
      target: r.accused_user_id === null ? `report:${r.id}` : `user:${r.accused_user_id}`,
      reason: outcome_text,
      detail: { report: r.id, target_kind: r.target_kind, target_id: r.target_id, category: r.category },
    });
    return c.json({ report: { id: r.id, state: r.state, outcome: r.outcome } });
  });
