import type { ReactNode } from 'react';
import type { RestrictionView } from '../../../shared/restrictions';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';

/** One restriction with its state and appeals (the operators' account page; `by` who made it). */
export function RestrictionCard({ restriction: r, by, children }: { restriction: RestrictionView; by?: string | null; children?: ReactNode }) {
  const t = useT();
  const snap = useSnap();
  const state = r.active ? 'active' : r.lifted_at !== null ? 'lifted' : 'over';
  return (
    <article className="operator-card" data-testid="restriction" data-id={r.id} data-kind={r.kind} data-state={state}>
      <h3 className="operator-card-title">
        {t(`restriction.kinds.${r.kind}`)} · {t(`restriction.categories.${r.reason_category}`)} <span className={`badge operator-badge operator-badge-${state}`}>{t(`restriction.states.${state}`)}</span>
      </h3>
      <p className="small muted">
        {t('operator.accounts.made', { date: dateText(r.created_at, snap.locale), who: by ?? '–' })}
        {r.ends_at !== null && ` · ${t('operator.accounts.until', { date: dateText(r.ends_at, snap.locale) })}`}
      </p>
      <p className="operator-quote">{r.reason}</p>
      {r.lifted_at !== null && (
        <p className="small">
          {t('operator.accounts.lifted', { date: dateText(r.lifted_at, snap.locale) })} {r.lift_reason}
        </p>
      )}
      {r.appeals.map((a) => (
        <div key={a.id} className="operator-appeal" data-testid="restriction-appeal" data-outcome={a.outcome ?? 'open'}>
          <p className="small muted">
            {t('operator.accounts.appealed', { date: dateText(a.created_at, snap.locale) })} · {t(`operator.appeals.outcomes.${a.outcome ?? 'open'}`)}
          </p>
          <p className="operator-quote">{a.text}</p>
          {a.answer && <p className="small">{a.answer}</p>}
        </div>
      ))}
      {children}
    </article>
  );
}
