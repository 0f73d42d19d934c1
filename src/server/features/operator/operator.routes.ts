import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { AUDIT_PAGE_SIZE, type AuditPage } from '../../../shared/operator';
import { parsePage } from '../../../shared/pagination';
import type { AppEnv } from '../../env';
import { validationHook } from '../../lib/validation';
import { auditPage } from './operator.repo';
import { enrolSecondFactor, requireOperator, verifySecondFactor } from './operator.service';

/** /api/operator: the second factor (an operator without it yet) and the audit trail (with it). */
export const operatorRoutes = new Hono<AppEnv>()
  .post('/second-factor/enrol', requireOperator(false), async (c) => c.json(await enrolSecondFactor(c)))
  .post(
    '/second-factor/verify',
    requireOperator(false),
    zValidator('json', z.object({ code: z.string().trim().regex(/^\d{6}$/, 'code_invalid') }), validationHook),
    async (c) => {
      await verifySecondFactor(c, c.req.valid('json').code);
      return c.json({ second_factor: true });
    },
  )
  .get('/audit', requireOperator(), async (c) => {
    const page = parsePage(c.req.query('page'));
    const { rows, total } = await auditPage(c.env.DB, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE);
    return c.json<AuditPage>({ data: rows, current_page: page, last_page: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)), total });
  });
