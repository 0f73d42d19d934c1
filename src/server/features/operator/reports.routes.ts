import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { resolveReportSchema, type ReportView } from '../../../shared/reports';
import type { AppEnv } from '../../env';
import { idParam } from '../../lib/params';
import { nowSeconds } from '../../lib/clock';
import { validationHook } from '../../lib/validation';
import { reportQueue, resolveReport } from '../reports/reports.service';
import { mailModerationDecision } from './moderation-mail';
import { hideMessage, takeDown } from './moderation.repo';
import { audit, requireOperator } from './operator.service';

// /api/operator/reports: the queue of open reports (oldest first, overdue after 7 days; ?state=resolved: the decided ones) and their
// resolution (issue 29 point 3), each recorded with its reason in the audit trail. `removed` takes
// a reported video or gallery out of the store (its performer is mailed the reason, the studio shows
// it) or a message out of the member's conversation; a restriction is made on the account's page
// (which sends the statement of reasons). The outcome is mailed to the reporter.

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
    if (outcome === 'removed') {
      const id = Number(r.target_id.split(':')[0]);
      if (r.target_kind === 'message') await hideMessage(c.env.DB, id);
      else {
        const kind = r.target_kind === 'video' ? 'video' : 'gallery';
        const taken = await takeDown(c.env.DB, kind, id, outcome_text, c.get('user')!.id, nowSeconds());
        if (taken) {
          await audit(c, { action: 'moderation.removed', target: `${kind}:${id}`, reason: outcome_text, detail: { report: r.id } });
          await mailModerationDecision(c.env, taken, 'rejected', outcome_text);
        }
      }
    }
    return c.json({ report: { id: r.id, state: r.state, outcome: r.outcome } });
  });
