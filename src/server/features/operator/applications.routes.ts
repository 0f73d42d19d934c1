import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { APPLICATION_DOCUMENTS, APPLICATION_STATES, decideSchema, type ApplicationView } from '../../../shared/applications';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { idParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { applicationDocument, applicationQueue, decideApplication } from '../applications/applications.service';
import { changeCustodian, currentCustodian, recordsList } from '../applications/records.service';
import { custodianSchema, type RecordsPageAnswer } from '../../../shared/records';
import { parsePage } from '../../../shared/pagination';
import { audit, requireOperator } from './operator.service';

// /api/operator/applications: performer applications (issue 29 point 1): the queue (oldest first),
// the two documents from the private bucket (this is the only route that reads it), and the
// decision, recorded with its reason in the audit trail and mailed to the applicant.
// /api/operator/records (migration 0033): the approved items with the verified people in each, and
// the custodian of records named on the 2257 page (each change in the audit trail).

const stateQuery = z.enum(APPLICATION_STATES).catch('submitted');
const whichParam = z.enum(APPLICATION_DOCUMENTS);

export const operatorApplicationRoutes = new Hono<AppEnv>()
  .get('/applications', requireOperator(), async (c) => {
    return c.json<{ data: ApplicationView[] }>({ data: await applicationQueue(c.env.DB, stateQuery.parse(c.req.query('state'))) });
  })
  .get('/applications/:id{[0-9]+}/documents/:which', requireOperator(), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    const which = whichParam.safeParse(c.req.param('which'));
    if (id === null || !which.success) throw new ApiError(404, 'not_found');
    const object = await applicationDocument(c.env, id, which.data);
    const type = object.httpMetadata?.contentType ?? 'application/octet-stream';
    return new Response(object.body, {
      headers: {
        'Content-Type': type,
        'Content-Length': String(object.size),
        'Cache-Control': 'no-store',
        // Pictures are shown in the operator's browser, never run; a PDF is saved, not opened in the site's origin.
        'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self'",
        'Content-Disposition': `${type.startsWith('image/') ? 'inline' : 'attachment'}; filename="application-${id}-${which.data}${type === 'application/pdf' ? '.pdf' : ''}"`,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  })
  .post('/applications/:id{[0-9]+}/decide', requireOperator(), zValidator('json', decideSchema, validationHook), async (c) => {
    const { decision, reason } = c.req.valid('json');
    const id = idParam.parse(c.req.param('id')) ?? 0;
    const { row, showId } = await decideApplication(c.env, c.get('user')!.id, id, decision, reason);
    await audit(c, { action: `application.${decision}`, target: `user:${row.user_id}`, reason, detail: { application: id, stage_name: row.stage_name, show_id: showId } });
    return c.json({ application: { id, state: row.state, show_id: showId } });
  })
  .get('/records', requireOperator(), async (c) => c.json<RecordsPageAnswer>(await recordsList(c.env.DB, parsePage(c.req.query('page')))))
  .put('/records/custodian', requireOperator(), zValidator('json', custodianSchema, validationHook), async (c) => {
    const next = c.req.valid('json');
    const before = await currentCustodian(c.env.DB);
    await changeCustodian(c.env.DB, next);
    await audit(c, { action: 'records.custodian', target: 'records_custodian:1', detail: { before, after: next } });
    return c.json({ custodian: next });
  });
