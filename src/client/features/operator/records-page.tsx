import { OPERATOR_RECORDS_PATH, type RecordsPageAnswer } from '../../../shared/records';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import CustodianForm from './custodian-form.island';

/**
 * /operator/records: the custodian of records (editable) and the approved items, newest first, each
 * with the verified people it depicts (legal name, stage name, date of birth, the application and
 * its decision date; the ID document itself stays behind the applications' document route).
 */
export function RecordsPage({ page }: { page: RecordsPageAnswer }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-page" data-testid="records-page">
      <h1>{t('operator.records.title')}</h1>
      <p className="muted">{t('operator.records.lead', { count: page.total })}</p>
      <article className="operator-card" data-testid="records-custodian">
        <h2 className="operator-card-title">{t('operator.records.custodian')}</h2>
        <Island name="CustodianForm" component={CustodianForm} props={{ custodian: page.custodian }} />
      </article>
      {page.data.map((item) => (
        <article key={`${item.kind}-${item.id}`} className="operator-card" data-testid="records-item" data-kind={item.kind} data-id={item.id}>
          <h2 className="operator-card-title">
            {snap.locale === 'de' ? item.title_de : item.title_en} <span className="muted small">{item.approved_at ? dateText(item.approved_at, snap.locale) : ''}</span>
          </h2>
          <p className="small">
            {t(`operator.moderation.kinds.${item.kind}`)} #{item.id} · {item.show_name}
          </p>
          {item.people.length === 0 ? (
            <p className="form-error" role="alert" data-testid="records-missing">
              {t('operator.records.missing')}
            </p>
          ) : (
            <ul className="records-people">
              {item.people.map((p) => (
                <li key={p.application_id} data-testid="records-person">
                  <dl className="records-person">
                    <dt>{t('operator.records.legalName')}</dt>
                    <dd data-testid="records-legal-name">{p.legal_name}</dd>
                    <dt>{t('operator.records.stageName')}</dt>
                    <dd>{p.stage_name}</dd>
                    <dt>{t('operator.records.dateOfBirth')}</dt>
                    <dd>{p.date_of_birth}</dd>
                    <dt>{t('operator.records.application')}</dt>
                    <dd>
                      #{p.application_id}
                      {p.decided_at ? ` · ${t('operator.records.decided', { date: dateText(p.decided_at, snap.locale) })}` : ''}
                    </dd>
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </article>
      ))}
      <nav className="records-pages" aria-label={t('operator.records.pages')}>
        {page.current_page > 1 && <a href={`${OPERATOR_RECORDS_PATH}?page=${page.current_page - 1}`}>{t('operator.records.newer')}</a>}{' '}
        <span className="muted small">{t('operator.records.pageOf', { page: page.current_page, last: page.last_page })}</span>{' '}
        {page.current_page < page.last_page && <a href={`${OPERATOR_RECORDS_PATH}?page=${page.current_page + 1}`}>{t('operator.records.older')}</a>}
      </nav>
    </section>
  );
}
