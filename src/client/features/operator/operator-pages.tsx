import { OPERATOR_RECORDS_PATH } from '../../../shared/records';
import { OPERATOR_APPLICATIONS_PATH } from '../../../shared/applications';
import { OPERATOR_INBOX_PATH } from '../../../shared/messages';
import { OPERATOR_LIVE_PATH, OPERATOR_MODERATION_PATH } from '../../../shared/moderation';
import { OPERATOR_APPEALS_PATH, OPERATOR_AUDIT_PATH, OPERATOR_PAYOUTS_PATH, OPERATOR_USERS_PATH, type AuditPage } from '../../../shared/operator';
import { OPERATOR_REPORTS_PATH } from '../../../shared/reports';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import { TableHead } from '../../ui/table-head';
import { AccountSearchForm } from './account-pages';
import SecondFactor from './second-factor.island';
import OperatorPayouts from './operator-payouts.island';
import type { PayoutView } from '../../../shared/payouts';

// The operators' pages (issue 29): their start page, the second factor, the audit trail. The
// server lets only operators in (operator.service.ts operatorPageGate); others see `NotOperator`.

export function NotOperator() {
  const t = useT();
  return (
    <section className="operator-page" data-testid="operator-page">
      <h1>{t('operator.title')}</h1>
      <p className="muted" data-testid="operator-not-operator">
        {t('operator.notOperator')}
      </p>
    </section>
  );
}

export function OperatorHome() {
  const t = useT();
  return (
    <section className="operator-page" data-testid="operator-home">
      <h1>{t('operator.title')}</h1>
      <ul className="operator-links">
        <li>
          <a href={OPERATOR_INBOX_PATH}>{t('operator.links.support')}</a>
        </li>
        <li>
          <a href={OPERATOR_AUDIT_PATH}>{t('operator.links.audit')}</a>
        </li>
        <li>
          <a href={OPERATOR_USERS_PATH}>{t('operator.links.accounts')}</a>
        </li>
        <li>
          <a href={OPERATOR_APPEALS_PATH}>{t('operator.links.appeals')}</a>
        </li>
        <li>
          <a href={OPERATOR_PAYOUTS_PATH}>{t('operator.links.payouts')}</a>
        </li>
        <li>
          <a href={OPERATOR_REPORTS_PATH}>{t('operator.links.reports')}</a>
        </li>
        <li>
          <a href={OPERATOR_MODERATION_PATH}>{t('operator.links.moderation')}</a>
        </li>
        <li>
          <a href={OPERATOR_LIVE_PATH}>{t('operator.links.live')}</a>
        </li>
        <li>
          <a href={OPERATOR_APPLICATIONS_PATH}>{t('operator.links.applications')}</a>
        </li>
        <li>
          <a href={OPERATOR_RECORDS_PATH}>{t('operator.links.records')}</a>
        </li>
      </ul>
      <AccountSearchForm />
    </section>
  );
}

export function SecondFactorPage({ enrolled, redirect }: { enrolled: boolean; redirect: string }) {
  const t = useT();
  return (
    <section className="operator-page operator-second-factor" data-testid="second-factor-page">
      <h1>{t('operator.secondFactor.title')}</h1>
      <p className="lead">{t(enrolled ? 'operator.secondFactor.leadEnrolled' : 'operator.secondFactor.leadNew')}</p>
      <Island name="SecondFactor" component={SecondFactor} props={{ enrolled, redirect }} />
    </section>
  );
}

function when(seconds: number, locale: string): string {
  return `${new Date(seconds * 1000).toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC' })} UTC`;
}

/** The trail, newest first, 50 a page (links work without script). */
export function AuditLogPage({ page }: { page: AuditPage }) {
  const t = useT();
  const snap = useSnap();
  const href = (n: number) => `${OPERATOR_AUDIT_PATH}?page=${n}`;
  return (
    <section className="operator-page" data-testid="audit-page">
      <h1>{t('operator.audit.title')}</h1>
      <p className="muted">{t('operator.audit.lead', { count: page.total })}</p>
      {page.data.length === 0 ? (
        <p className="empty-state" data-testid="audit-empty">
          {t('operator.audit.empty')}
        </p>
      ) : (
        <div className="operator-table-wrap">
          <table className="operator-table">
            <TableHead columns={[t('operator.audit.when'), t('operator.audit.who'), t('operator.audit.what'), t('operator.audit.target'), t('operator.audit.reason')]} />
            <tbody>
              {page.data.map((e) => (
                <tr key={e.id} data-testid="audit-row" data-action={e.action}>
                  <td className="muted">{when(e.at, snap.locale)}</td>
                  <td>{e.actor}</td>
                  <td>
                    <code>{e.action}</code>
                    {e.detail && <span className="muted small"> {JSON.stringify(e.detail)}</span>}
                  </td>
                  <td>{e.target ?? ''}</td>
                  <td>{e.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="operator-pager" aria-label={t('pagination.label')}>
        {page.current_page > 1 && (
          <a href={href(page.current_page - 1)} rel="prev">
            {t('pagination.previous')}
          </a>
        )}
        {page.current_page < page.last_page && (
          <a href={href(page.current_page + 1)} rel="next">
            {t('pagination.next')}
          </a>
        )}
      </nav>
    </section>
  );
}

/** Payout requests to pay in a batch (an island), and the last batches with their statements. */
export function PayoutsPage({ requested, batches: all }: { requested: PayoutView[]; batches: { id: number; created_at: number; count: number; coins: number }[] }) {
  const t = useT();
  const snap = useSnap();
  const batches = all.filter((b) => b.count > 0);
  return (
    <section className="operator-page" data-testid="payouts-page">
      <h1>{t('operator.payouts.title')}</h1>
      <p className="muted">{t('operator.payouts.lead')}</p>
      <Island name="OperatorPayouts" component={OperatorPayouts} props={{ requested }} />
      {batches.length > 0 && (
        <>
          <h2>{t('operator.payouts.batches')}</h2>
          <ul className="operator-batches">
            {batches.map((b) => (
              <li key={b.id}>
                <a href={`/api/operator/payouts/batches/${b.id}`} download>
                  {t('operator.payouts.batch', { batch: b.id, count: b.count, coins: b.coins, when: when(b.created_at, snap.locale) })}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
