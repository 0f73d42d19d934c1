import { operatorUserPath } from '../../../shared/operator';
import { OPERATOR_REPORTS_PATH, reportTargetPath, type ReportView } from '../../../shared/reports';
import type { TFunction } from '../../../shared/translate';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import ReportResolve from './report-resolve.island';

// The operators' queue of reports (issue 29 point 3): oldest first, each with its age (over 7
// days flagged), what was reported as it was, links to the content and to the account behind it
// (where restrict is), and the resolve form.

export function ageText(t: TFunction, seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  if (days >= 1) return t('operator.reports.days', { count: days });
  if (seconds >= 3600) return t('operator.reports.hours', { count: Math.floor(seconds / 3600) });
  return t('operator.reports.minutes', { count: Math.max(1, Math.floor(seconds / 60)) });
}

export function ReportsPage({ reports }: { reports: ReportView[] }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-page" data-testid="reports-page">
      <h1>{t('operator.reports.title')}</h1>
      <p className="muted">{t('operator.reports.lead', { count: reports.length })}</p>
      {reports.length === 0 && (
        <p className="empty-state" data-testid="reports-empty">
          {t('operator.reports.empty')}
        </p>
      )}
      {reports.map((r) => {
        const href = reportTargetPath(r.target_kind, r.target_id, r.show_id);
        const quote = [r.snapshot.nick, r.snapshot.title, r.snapshot.text].filter(Boolean).join(' · ');
        return (
          <article key={r.id} className={r.overdue ? 'operator-card is-overdue' : 'operator-card'} data-testid="report" data-id={r.id} data-overdue={r.overdue ? '1' : '0'}>
            <h2 className="operator-card-title">
              {t(`reports.title.${r.target_kind}`)} · {t(`reports.categories.${r.category}`)}{' '}
              {r.overdue && (
                <strong className="report-overdue" data-testid="report-overdue">
                  {t('operator.reports.overdue')}
                </strong>
              )}
            </h2>
            <p className="small muted">
              {t('operator.reports.age', { age: ageText(t, r.age) })} ({dateText(r.created_at, snap.locale)}) · {t(r.reporter === 'member' ? 'operator.reports.by_member' : 'operator.reports.by_visitor')}
            </p>
            {quote && (
              <>
                <h3 className="small">{t('operator.reports.snapshot')}</h3>
                <p className="operator-quote" data-testid="report-snapshot">
                  {quote}
                </p>
              </>
            )}
            <h3 className="small">{t('operator.reports.text')}</h3>
            <p className="operator-quote" data-testid="report-text">
              {r.text}
            </p>
            <p className="small">
              {href && <a href={href}>{t('operator.reports.target')}</a>}
              {href && r.accused_user_id !== null && ' · '}
              {r.accused_user_id !== null && (
                <a href={operatorUserPath(r.accused_user_id)} data-testid="report-account">
                  {t('operator.reports.account')}
                </a>
              )}
            </p>
            <Island name="ReportResolve" component={ReportResolve} props={{ reportId: r.id, kind: r.target_kind }} />
          </article>
        );
      })}
      <p>
        <a href={OPERATOR_REPORTS_PATH}>{t('operator.reports.refresh')}</a>
      </p>
    </section>
  );
}
