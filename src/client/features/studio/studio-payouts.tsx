import { useEffect, useState } from 'react';
import type { StudioPayouts as Payouts } from '../../../shared/payouts';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { Field, FormError, useApiForm, type Errors } from '../../ui/form';
import { TableHead } from '../../ui/table-head';

/**
 * The performer's money beyond today (issue 29 point 6): the earnings account, what is disputed
 * (shares of members who owe after a chargeback), what may be paid out and a request for it, the
 * payouts so far, and the last 30 days by day and source.
 */
export function StudioPayouts() {
  const t = useT();
  const [data, setData] = useState<Payouts | null>(null);
  const [failed, setFailed] = useState(false);
  const form = useApiForm({ amount: '' });
  const load = () =>
    api()
      .get<Payouts>('studio/payouts')
      .then((d) => {
        setData(d);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  useEffect(() => void load(), []);

  const submit = form.submit(
    (v): Errors => (/^\d+$/.test(v.amount.trim()) ? {} : { amount: t('errors.amount_invalid') }),
    async ({ amount }) => {
      await api().post('studio/payouts', { amount: Number(amount.trim()) });
      form.reset();
      await load();
    },
    ['amount'],
  );

  if (!data) {
    return (
      <section className="studio-card studio-payouts" data-testid="studio-payouts" aria-busy={!failed}>
        <h2>{t('studio.payouts.title')}</h2>
        <p className="muted small">{t(failed ? 'studio.earnings.unavailable' : 'studio.payouts.loading')}</p>
      </section>
    );
  }
  const open = data.payouts.find((p) => p.state === 'requested');
  return (
    <section className="studio-card studio-payouts" data-testid="studio-payouts" data-payable={data.payable}>
      <h2>{t('studio.payouts.title')}</h2>
      <dl className="studio-money">
        <dt>{t('studio.payouts.balance')}</dt>
        <dd data-testid="studio-balance">{data.balance}</dd>
        {data.disputed > 0 && (
          <>
            <dt>{t('studio.payouts.disputed')}</dt>
            <dd data-testid="studio-disputed">{data.disputed}</dd>
          </>
        )}
        <dt>{t('studio.payouts.payable')}</dt>
        <dd data-testid="studio-payable">{data.payable}</dd>
      </dl>
      {open ? (
        <p className="small" data-testid="studio-payout-open">
          {t('studio.payouts.open', { coins: open.amount })}
        </p>
      ) : data.payable >= data.minimum ? (
        <form className="pf-form studio-payout-form" onSubmit={submit} noValidate>
          <Field id="studio-payout-amount" name="amount" label={t('studio.payouts.amount')} hint={t('studio.payouts.hint', { min: data.minimum, max: data.payable })} inputMode="numeric" {...form.field('amount')} />
          <FormError text={form.general} />
          <button type="submit" className="btn btn-primary" disabled={form.busy} data-action="studio-payout">
            {t('studio.payouts.request')}
          </button>
        </form>
      ) : (
        <p className="muted small">{t('studio.payouts.below', { min: data.minimum })}</p>
      )}
      {data.payouts.length > 0 && (
        <ul className="studio-payout-list" data-testid="studio-payout-list">
          {data.payouts.slice(0, 10).map((p) => (
            <li key={p.id} data-state={p.state}>
              {t(`studio.payouts.state.${p.state}`, { coins: p.amount })}
              {p.note ? ` · ${p.note}` : ''}
            </li>
          ))}
        </ul>
      )}
      {data.by_day.length > 0 && (
        <table className="studio-statement studio-by-day" data-testid="studio-by-day">
          <caption className="small muted">{t('studio.payouts.byDay')}</caption>
          <TableHead columns={[t('studio.payouts.day'), t('studio.earnings.what'), t('studio.earnings.coins')]} />
          <tbody>
            {data.by_day.slice(0, 60).map((d) => (
              <tr key={`${d.day}-${d.reason}`}>
                <td>{d.day}</td>
                <td>{t(`studio.earnings.kind.${d.reason}`)}</td>
                <td className="num">{d.coins}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
