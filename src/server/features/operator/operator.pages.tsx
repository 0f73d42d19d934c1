import { Hono, type Context } from 'hono';
import type { ReactNode } from 'react';
import { Layout } from '../../../client/shell/layout';
import { AuditLogPage, PayoutsPage, NotOperator, OperatorHome, SecondFactorPage } from '../../../client/features/operator/operator-pages';
import { AUDIT_PAGE_SIZE, OPERATOR_AUDIT_PATH, OPERATOR_PAYOUTS_PATH, OPERATOR_HOME_PATH, OPERATOR_SECOND_FACTOR_PATH } from '../../../shared/operator';
import { parsePage } from '../../../shared/pagination';
import { safeRedirect } from '../../../shared/safe-redirect';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import type { PageMessageKey } from '../../../shared/state';
import { auditPage, totpRow } from './operator.repo';
import { payoutsWhere, recentBatches } from '../../lib/payouts.repo';
import { operatorPageGate } from './operator.service';
import { ApplicationsPage } from '../../../client/features/operator/applications-page';
import { OPERATOR_APPLICATIONS_PATH } from '../../../shared/applications';
import { applicationQueue } from '../applications/applications.service';

/** An operator page behind the door (operatorPageGate): a visitor is sent to log in, a non-operator sees a notice (403). */
export async function page(c: Context<AppEnv>, path: string, title: string, body: () => Promise<ReactNode>, texts: readonly PageMessageKey[] = ['operator']): Promise<Response> {
  const gate = operatorPageGate(c, path);
  if (gate instanceof Response) return gate;
  const t = c.get('t');
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('operator.title'), href: OPERATOR_HOME_PATH }, { label: title }]}>{gate === 'ok' ? await body() : <NotOperator />}</Layout>,
    { title: `${title} – ${t('common.brand')}`, robots: 'noindex', texts },
    gate === 'ok' ? 200 : 403,
  );
}

/** /operator, /operator/second-factor, /operator/audit (the support inbox is messages' /operator/messages). */
export const operatorSidePages = new Hono<AppEnv>()
  .get('/', (c) => page(c, OPERATOR_HOME_PATH, c.get('t')('operator.title'), async () => <OperatorHome />))
  .get('/second-factor', async (c) => {
    const redirect = safeRedirect(c.req.query('redirect'), new URL(c.req.url).origin, OPERATOR_HOME_PATH);
    // With the factor given already in this login there is nothing to do here.
    if (c.get('operator')?.secondFactorAt) return c.redirect(redirect, 302);
    return page(c, OPERATOR_SECOND_FACTOR_PATH, c.get('t')('operator.secondFactor.title'), async () => {
      const row = await totpRow(c.env.DB, c.get('user')!.id);
      return <SecondFactorPage enrolled={!!row?.confirmed_at} redirect={redirect} />;
    });
  })
  // Performer applications waiting for a decision (issue 29 point 1).
  .get('/applications', (c) => page(c, OPERATOR_APPLICATIONS_PATH, c.get('t')('operator.applications.title'), async () => <ApplicationsPage items={await applicationQueue(c.env.DB, 'submitted')} />))
  .get('/audit', (c) =>
    page(c, OPERATOR_AUDIT_PATH, c.get('t')('operator.audit.title'), async () => {
      const n = parsePage(c.req.query('page'));
      const { rows, total } = await auditPage(c.env.DB, AUDIT_PAGE_SIZE, (n - 1) * AUDIT_PAGE_SIZE);
      return <AuditLogPage page={{ data: rows, current_page: n, last_page: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)), total }} />;
    }),
  )
  .get('/payouts', (c) =>
    page(c, OPERATOR_PAYOUTS_PATH, c.get('t')('operator.payouts.title'), async () => {
      const [requested, batches] = await Promise.all([payoutsWhere(c.env.DB, { state: 'requested' }), recentBatches(c.env.DB)]);
      return <PayoutsPage requested={requested} batches={batches} />;
    }),
  );
