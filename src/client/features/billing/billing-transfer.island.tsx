import { useEffect, useRef, useState } from 'react';
import { errorCodes, errorTexts } from './billing-data';
import { Icon } from '../../ui/icon';
import { api } from '../../lib/api';
import { postToOpener, processId } from './billing-popup';
import { useT } from '../../state/context';

export interface BillingTransferProps {
  paymentTypeId: number | null;
  productId: number | null;
  code: string | null;
  isPhoneCall: boolean;
}

type State = { phase: 'starting' } | { phase: 'redirecting'; id: number } | { phase: 'error'; codes: string[] };

/**
 * Runs in the payment popup: starts the billing (POST billing/init, or init_phonecall for the
 * phone type) and hands the window to the provider's checkout. Errors are shown here and sent
 * to the opener as billing.error.
 */
export default function BillingTransfer({ paymentTypeId, productId, code, isPhoneCall }: BillingTransferProps) {
  const t = useT();
  const [state, setState] = useState<State>({ phase: 'starting' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (codes: string[]) => {
      setState({ phase: 'error', codes });
      postToOpener({ result: 'billing.error', billingid: null, errors: codes, isPhoneCall });
    };
    // Billing start needs paymenttypeid and productid.
    const missing = [...(paymentTypeId ? [] : ['payment_type_invalid']), ...(productId ? [] : ['product_invalid'])];
    if (missing.length) {
      fail(missing);
      return;
    }
    const body: Record<string, unknown> = { paymenttypeid: paymentTypeId, productid: productId };
    if (code && !isPhoneCall) body.code = code;
    api()
      .post<{ link: string; id: number }>(isPhoneCall ? 'billing/init_phonecall' : 'billing/init', body)
      .then((res) => {
        if (!res?.link) throw new Error('no link');
        setState({ phase: 'redirecting', id: res.id });
        // The opener checks the voice call from now on (pending every 2.5 s).
        if (isPhoneCall) postToOpener({ type: 'initVoicecall', billingid: res.id });
        location.replace(res.link);
      })
      .catch((error: unknown) => fail(errorCodes(error)));
  }, [paymentTypeId, productId, code, isPhoneCall]);

  if (state.phase === 'error') {
    return (
      <div className="billing-transfer" data-state="error" data-testid="billing-transfer">
        <div className="form-alert form-alert-error" role="alert">
          <Icon name="warning" size={20} />
          <div>
            <strong>{t('billing.transfer.failed')}</strong>
            <ul className="billing-errors">
              {errorTexts(t, state.codes).map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </div>
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn btn-outline" onClick={() => window.close()}>
            {t('billing.closeWindow')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="billing-transfer" data-state={state.phase} data-testid="billing-transfer" aria-busy="true">
      <span className="spinner spinner-28" aria-hidden="true" />
      <p className="lead">{t('billing.transfer.redirecting')}</p>
      {state.phase === 'redirecting' && (
        <p className="billing-process muted">
          {t('billing.processId')} <strong data-testid="transfer-process-id">{processId(state.id)}</strong>
        </p>
      )}
    </div>
  );
}
