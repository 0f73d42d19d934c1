import { Island } from '../../ui/island';
import { useT } from '../../state/context';
import OperatorInbox from './operator-inbox.island';

/** The operator inbox page; accounts without the operator role see a notice instead. */
export function OperatorPage({ operator }: { operator: boolean }) {
  const t = useT();
  return (
    <section className="operator-page" data-testid="operator-page">
      <h1>{t('inbox.operatorTitle')}</h1>
      {operator ? (
        <Island name="OperatorInbox" component={OperatorInbox} props={{}} />
      ) : (
        <p className="muted" data-testid="operator-not-operator">
          {t('inbox.notOperator')}
        </p>
      )}
    </section>
  );
}
