import { useState } from 'react';
import type { PayoutView } from '../../../shared/payouts';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { FormError } from '../../ui/form';
import { translateFailure } from '../../ui/api-failure';

/** The payout requests waiting: the operator picks some (all by default) and pays them as one batch; its CSV statement follows. */
export default function OperatorPayouts({ requested }: { requested: PayoutView[] }) {
  const t = useT();
  const [picked, setPicked] = useState(() => new Set(requested.map((p) => p.id)));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ batch_id: number; results: Record<string, string> } | null>(null);
  const toggle = (id: number) =>
    setPicked((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      setDone(await api().post<{ batch_id: number; results: Record<string, string> }>('operator/payouts/pay', { ids: [...picked] }));
    } catch (e) {
      setError(translateFailure(t, e, []).general);
    } finally {
      setBusy(false);
    }
  };
  if (done) {
    return (
      <div className="operator-payouts" data-testid="operator-payouts" data-batch={done.batch_id}>
        <ul>
          {requested
            .filter((p) => done.results[p.id])
            .map((p) => (
              <li key={p.id} data-result={done.results[p.id]}>
                {t(`operator.payouts.result.${done.results[p.id]}`, { show: p.show_name, coins: p.amount })}
              </li>
            ))}
        </ul>
        <p>
          <a href={`/api/operator/payouts/batches/${done.batch_id}`} download data-testid="operator-payouts-csv">
            {t('operator.payouts.csv', { batch: done.batch_id })}
          </a>
        </p>
      </div>
    );
  }
  if (requested.length === 0) return <p className="empty-state" data-testid="operator-payouts-empty">{t('operator.payouts.empty')}</p>;
  return (
    <div className="operator-payouts" data-testid="operator-payouts">
      <ul className="operator-payout-list">
        {requested.map((p) => (
          <li key={p.id}>
            <label>
              <input type="checkbox" checked={picked.has(p.id)} onChange={() => toggle(p.id)} data-payout={p.id} />{' '}
              {t('operator.payouts.item', { show: p.show_name, coins: p.amount, id: p.id })}
            </label>
          </li>
        ))}
      </ul>
      <FormError text={error} />
      <button type="button" className="btn btn-primary" disabled={busy || picked.size === 0} onClick={() => void pay()} data-action="operator-pay">
        {t('operator.payouts.pay', { count: picked.size })}
      </button>
    </div>
  );
}
