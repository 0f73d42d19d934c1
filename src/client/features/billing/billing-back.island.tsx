import { useEffect, useState } from 'react';
import { Icon } from '../../ui/icon';
import { postToOpener, processId, type BillingResult } from './billing-popup';
import { useT } from '../../state/context';

export interface BillingBackProps {
  result: BillingResult;
  /** The payment came after the billing had ended: not credited, to be refunded. */
  refund?: boolean;
  billingId: number | null;
}

const KEY: Record<BillingResult, string> = {
  'billing.success': 'success',
  'billing.cancel': 'cancel',
  'billing.error': 'error',
};

/**
 * Where the provider sends the popup back: tells the opener the result (which shows its dialog
 * and closes this window) and says a word meanwhile. Without an opener it links home.
 */
export default function BillingBack({ result, refund = false, billingId }: BillingBackProps) {
  const t = useT();
  const [hasOpener, setHasOpener] = useState<boolean | null>(null);

  useEffect(() => {
    const sent = postToOpener({ result, billingid: billingId, errors: result === 'billing.error' ? ['billing.error'] : [], isPhoneCall: false });
    setHasOpener(sent);
  }, [result, billingId]);

  const key = refund ? 'refund' : KEY[result];
  return (
    <div className={`billing-back billing-back-${key}`} data-testid="billing-back" data-result={result}>
      <div className="billing-back-icon" aria-hidden="true">
        <Icon name={result === 'billing.success' ? 'coins' : 'warning'} size={40} />
      </div>
      <h1>{t(`billing.back.${key}.title`)}</h1>
      <p className="muted">{t(`billing.back.${key}.text`)}</p>
      {hasOpener && <p className="muted small">{t('billing.back.closing')}</p>}
      {billingId !== null && (
        <p className="billing-process small muted">
          {t('billing.processId')} <strong>{processId(billingId)}</strong>
        </p>
      )}
      <div className="billing-back-actions">
        {hasOpener === false ? (
          <a className="btn btn-primary" href="/" data-action="billing-back-home">
            {t('billing.back.home')}
          </a>
        ) : (
          <button type="button" className="btn btn-primary" data-action="billing-back-close" onClick={() => window.close()}>
            {t('billing.closeWindow')}
          </button>
        )}
      </div>
    </div>
  );
}
