import { Island } from '../../components/island';
import BillingBack, { type BillingBackProps } from '../../islands/billing-back';

/** /billing/back (in the popup): the provider's way back with the result. */
export function BackPage(props: BillingBackProps) {
  return (
    <section className="billing-popup-page">
      <Island name="BillingBack" component={BillingBack} props={props} />
    </section>
  );
}
