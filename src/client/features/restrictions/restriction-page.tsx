import type { Statement } from '../../../shared/restrictions';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import AppealForm from './appeal-form.island';

// The statement of reasons a banned or suspended account reads by its mailed link (DSA art. 17:
// what, why, on which ground, until when, that a person decided, how to appeal) and its appeal.

export function RestrictionPage({ statement: s, token }: { statement: Statement; token: string }) {
  const t = useT();
  const snap = useSnap();
  const r = s.restriction;
  const state = r.active ? 'active' : r.lifted_at !== null ? 'lifted' : 'over';
  const open = r.appeals.some((a) => a.decided_at === null);
  return (
    <section className="restriction-page" data-testid="restriction-page" data-kind={r.kind} data-state={state}>
      <h1>{t(`restriction.page.title_${r.kind}`)}</h1>
      <p className="lead" data-testid="restriction-what">
        {state === 'active'
          ? r.ends_at === null
            ? t('restriction.page.banned', { name: s.name })
            : t('restriction.page.suspended', { name: s.name, date: dateText(r.ends_at, snap.locale) })
          : t(`restriction.page.${state}`)}
      </p>
      <dl className="restriction-facts">
        <dt>{t('restriction.page.category')}</dt>
        <dd data-testid="restriction-category">{t(`restriction.categories.${r.reason_category}`)}</dd>
        <dt>{t('restriction.page.since')}</dt>
        <dd>{dateText(r.created_at, snap.locale)}</dd>
        <dt>{t('restriction.page.until')}</dt>
        <dd>{r.ends_at === null ? t('restriction.page.untilLifted') : dateText(r.ends_at, snap.locale)}</dd>
      </dl>
      <h2>{t('restriction.page.reasons')}</h2>
      <p className="restriction-reason" data-testid="restriction-reason">
        {r.reason}
      </p>
      <p className="muted small">{t('restriction.page.person')}</p>
      {r.lift_reason && <p data-testid="restriction-lifted">{r.lift_reason}</p>}
      {r.appeals.length > 0 && (
        <>
          <h2>{t('restriction.page.appeals')}</h2>
          {r.appeals.map((a) => (
            <div key={a.id} className="restriction-appeal-item" data-testid="restriction-appeal" data-outcome={a.outcome ?? 'open'}>
              <p className="small muted">
                {dateText(a.created_at, snap.locale)} · {t(`restriction.appeal.outcomes.${a.outcome ?? 'open'}`)}
              </p>
              <p className="restriction-reason">{a.text}</p>
              {a.answer && <p>{a.answer}</p>}
            </div>
          ))}
        </>
      )}
      {s.can_appeal && (
        <>
          <h2>{t('restriction.appeal.title')}</h2>
          <p>{t('restriction.appeal.lead')}</p>
          <Island name="AppealForm" component={AppealForm} props={{ token }} />
        </>
      )}
      {open && <p className="form-note">{t('restriction.appeal.open')}</p>}
    </section>
  );
}
