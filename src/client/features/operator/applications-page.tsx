import { OPERATOR_APPLICATIONS_PATH, type ApplicationView } from '../../../shared/applications';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import ApplicationDecision from './application-decision.island';

/** /operator/applications: performer applications waiting, oldest first, with their two documents and the decision form. */
export function ApplicationsPage({ items }: { items: ApplicationView[] }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-page" data-testid="applications-page">
      <h1>{t('operator.applications.title')}</h1>
      <p className="muted">{t('operator.applications.lead', { count: items.length })}</p>
      {items.length === 0 && (
        <p className="empty-state" data-testid="applications-empty">
          {t('operator.applications.empty')}
        </p>
      )}
      {items.map((a) => (
        <article key={a.id} className="operator-card" data-testid="application-item" data-id={a.id}>
          <h2 className="operator-card-title">
            {a.stage_name} <span className="muted small">{dateText(a.created_at, snap.locale)}</span>
          </h2>
          <dl className="small">
            <dt>{t('operator.applications.legalName')}</dt>
            <dd>{a.legal_name}</dd>
            <dt>{t('operator.applications.born')}</dt>
            <dd>{t('operator.applications.bornValue', { date: a.date_of_birth, age: a.age })}</dd>
            <dt>{t('operator.applications.country')}</dt>
            <dd>{a.country}</dd>
            <dt>{t('operator.applications.account')}</dt>
            <dd>
              <a href={`/operator/users/${a.user_id}`}>{a.user_name}</a>
            </dd>
            <dt>{t('operator.applications.joins')}</dt>
            <dd data-testid="application-joins">{a.join_show_name ? t('operator.applications.joinsShow', { show: a.join_show_name }) : t('operator.applications.newShow')}</dd>
          </dl>
          {a.documents && (
            <p>
              <a href={a.documents.id} target="_blank" rel="noopener noreferrer" data-testid="application-id-document">
                {t('operator.applications.idDocument')}
              </a>
              {' · '}
              <a href={a.documents.selfie} target="_blank" rel="noopener noreferrer" data-testid="application-selfie">
                {t('operator.applications.selfie')}
              </a>
            </p>
          )}
          <Island name="ApplicationDecision" component={ApplicationDecision} props={{ id: a.id }} />
        </article>
      ))}
      <p>
        <a href={OPERATOR_APPLICATIONS_PATH}>{t('operator.applications.refresh')}</a>
      </p>
    </section>
  );
}
