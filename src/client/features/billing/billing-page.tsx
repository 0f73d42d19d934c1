import { Island } from '../../ui/island';
import type { BillingList } from '../../../shared/billing';
import { Icon } from '../../ui/icon';
import BillingPicker from './billing-picker.island';
import { useT } from '../../state/context';
import { PageHeader } from '../../ui/page-header';

/** /billing, /bill and /billing/f/{code}: buying coins (or paying by phone). */
export function BillingPage({ code, voicecall, initial }: { code: string | null; voicecall: boolean; initial: BillingList | null }) {
  const t = useT();
  return (
    <section className="billing-page" data-testid="billing-page">
      <PageHeader title={t(voicecall ? 'billing.voicecallTitle' : 'billing.title')} lead={t(voicecall ? 'billing.voicecallLead' : 'billing.lead')} className="billing-header" />
      <Island name="BillingPicker" component={BillingPicker} props={{ code, voicecall, initial }} />
      <ul className="billing-notes">
        <li>
          <Icon name="lock" size={20} />
          <span>{t('billing.notes.secure')}</span>
        </li>
        <li>
          <Icon name="star" size={20} />
          <span>{t('billing.notes.discreet')}</span>
        </li>
        <li>
          <Icon name="help" size={20} />
          <span>
            {t('billing.notes.help')}{' '}
            <a href="/contact#contact">{t('billing.notes.contact')}</a>
          </span>
        </li>
      </ul>
    </section>
  );
}
