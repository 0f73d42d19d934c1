import { Island } from '../../ui/island';
import BillingBack, { type BillingBackProps } from './billing-back.island';

/** /billing/back (in the popup): the provider's way back with the result. */
export function BackPage(props: BillingBackProps) {
  return (
    <section className="billing-popup-page">
      <Island name="BillingBack" component={BillingBack} props={props} />
    </section>
  );
}
