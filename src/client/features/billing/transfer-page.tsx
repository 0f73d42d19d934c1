import { Island } from '../../ui/island';
import BillingTransfer, { type BillingTransferProps } from './billing-transfer.island';
import { useT } from '../../state/context';

/** /billing/transfer (in the popup): the chosen method, then off to the provider. */
export function TransferPage({ paymentTypeName, ...props }: BillingTransferProps & { paymentTypeName: string }) {
  const t = useT();
  return (
    <section className="billing-popup-page">
      <header className="billing-popup-head">
        <h1>{t('billing.transfer.title')}</h1>
        {paymentTypeName && <p className="muted">{paymentTypeName}</p>}
      </header>
      <Island name="BillingTransfer" component={BillingTransfer} props={props} />
    </section>
  );
}
