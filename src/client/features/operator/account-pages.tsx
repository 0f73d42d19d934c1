import { OPERATOR_APPEALS_PATH, OPERATOR_USERS_PATH, operatorUserPath } from '../../../shared/operator';
import type { AccountHit, AccountSummary, OpenAppeal, OpenContentAppeal } from '../../../shared/restrictions';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import AppealDecision from './appeal-decision.island';
import { ContentAppealsSection } from './content-appeals-section';
import LiftForm from './lift-form.island';
import { RestrictionCard } from './restriction-card';
import RestrictForm from './restrict-form.island';

// The operators' account pages (issue 29 point 4): the search, an account with its restrictions
// (restrict, lift) and the queue of open appeals (decide): against restrictions, then against
// removed uploads (content-appeals-section.tsx).

/** The search by id, name or address (a plain GET form: works without script). */
export function AccountSearchForm({ q = '' }: { q?: string }) {
  const t = useT();
  return (
    <form className="operator-search" method="get" action={OPERATOR_USERS_PATH} role="search" data-testid="account-search">
      <label htmlFor="account-q">{t('operator.accounts.searchLabel')}</label>
      <div className="operator-search-row">
        <input id="account-q" name="q" type="search" defaultValue={q} maxLength={254} autoCapitalize="none" spellCheck={false} />
        <button type="submit" className="btn btn-primary">
          {t('operator.accounts.search')}
        </button>
      </div>
    </form>
  );
}

export function AccountSearchPage({ q, hits }: { q: string; hits: AccountHit[] }) {
  const t = useT();
  return (
    <section className="operator-page" data-testid="accounts-page">
      <h1>{t('operator.accounts.title')}</h1>
      <AccountSearchForm q={q} />
      {q && hits.length === 0 && <p className="empty-state">{t('operator.accounts.none')}</p>}
      {hits.length > 0 && (
        <ul className="operator-hits">
          {hits.map((h) => (
            <li key={h.id} data-testid="account-hit" data-id={h.id}>
              <a href={operatorUserPath(h.id)}>
                {h.name} <span className="muted">#{h.id}</span>
              </a>{' '}
              <span className="muted small">{h.email}</span>
              {h.restricted && <span className="badge operator-badge">{t('operator.accounts.restricted')}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function AccountPage({ account }: { account: AccountSummary }) {
  const t = useT();
  const snap = useSnap();
  const active = account.restrictions.find((r) => r.active);
  return (
    <section className="operator-page" data-testid="account-page" data-id={account.id}>
      <h1>
        {account.name} <span className="muted">#{account.id}</span>
      </h1>
      <dl className="operator-facts">
        <dt>{t('operator.accounts.email')}</dt>
        <dd>{account.email}</dd>
        <dt>{t('operator.accounts.language')}</dt>
        <dd>{account.locale}</dd>
        <dt>{t('operator.accounts.since')}</dt>
        <dd>{dateText(account.created_at, snap.locale)}</dd>
        {account.show && (
          <>
            <dt>{t('operator.accounts.show')}</dt>
            <dd data-testid="account-show">
              {account.show.name} <span className="muted">#{account.show.id}</span>
            </dd>
          </>
        )}
      </dl>
      {account.is_operator && <p className="muted">{t('operator.accounts.isOperator')}</p>}
      <h2>{t('operator.accounts.restrictions')}</h2>
      {account.restrictions.length === 0 && <p className="muted">{t('operator.accounts.noRestrictions')}</p>}
      {account.restrictions.map((r) => (
        <RestrictionCard key={r.id} restriction={r} by={r.created_by}>
          {r.active && <Island name="LiftForm" component={LiftForm} props={{ restrictionId: r.id }} />}
        </RestrictionCard>
      ))}
      {!active && !account.is_operator && (
        <>
          <h2>{t('operator.restrict.title')}</h2>
          <p className="muted small">{t('operator.restrict.lead')}</p>
          <Island name="RestrictForm" component={RestrictForm} props={{ userId: account.id }} />
        </>
      )}
    </section>
  );
}

export function AppealsPage({ appeals, contentAppeals }: { appeals: OpenAppeal[]; contentAppeals: OpenContentAppeal[] }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-page" data-testid="appeals-page">
      <h1>{t('operator.appeals.title')}</h1>
      <p className="muted">{t('operator.appeals.lead', { count: appeals.length })}</p>
      {appeals.length === 0 && (
        <p className="empty-state" data-testid="appeals-empty">
          {t('operator.appeals.empty')}
        </p>
      )}
      {appeals.map((a) => (
        <article key={a.id} className="operator-card" data-testid="appeal" data-id={a.id} data-user={a.user.id}>
          <h2 className="operator-card-title">
            <a href={operatorUserPath(a.user.id)}>{a.user.name}</a> <span className="muted small">{dateText(a.created_at, snap.locale)}</span>
          </h2>
          <p className="small">
            {t(`restriction.kinds.${a.restriction.kind}`)} · {t(`restriction.categories.${a.restriction.reason_category}`)}
            {a.restriction.ends_at !== null && ` · ${t('operator.accounts.until', { date: dateText(a.restriction.ends_at, snap.locale) })}`}
          </p>
          <p className="operator-quote muted">{a.restriction.reason}</p>
          <h3 className="small">{t('operator.appeals.text')}</h3>
          <p className="operator-quote" data-testid="appeal-text">
            {a.text}
          </p>
          <Island name="AppealDecision" component={AppealDecision} props={{ appealId: a.id }} />
        </article>
      ))}
      <ContentAppealsSection appeals={contentAppeals} />
      <p>
        <a href={OPERATOR_APPEALS_PATH}>{t('operator.appeals.refresh')}</a>
      </p>
    </section>
  );
}
