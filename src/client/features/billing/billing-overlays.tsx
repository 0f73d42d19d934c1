import { useRef } from 'react';
import { isBillingPopupWindow, parseBillingMessage, processId } from './billing-popup';
import { useSnap, useStore, useT } from '../../state/context';
import type { RootState } from '../../state/store';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { handleBillingMessage } from './billing-actions';
import { errorTexts } from './billing-data';
import { VoicecallCheck } from './voicecall-check';
import { VoicecallNotice } from './voicecall-notice';

/**
 * The opener side of the payment popup and the voice-call checks. Loaded by the Overlays island
 * only once a billing message arrives or a dialog or voice-call check is due, so pages that
 * never pay do not download it.
 */
export default function BillingOverlays() {
  return (
    <>
      <BillingResultDialog />
      <VoicecallCheck />
      <VoicecallNotice variant="bar" />
    </>
  );
}

/** A window message of the payment popup (same origin only). */
export function onBillingMessage(store: RootState, e: MessageEvent): void {
  if (isBillingPopupWindow() || e.origin !== location.origin) return;
  const msg = parseBillingMessage(e.data);
  if (!msg) return;
  const source = e.source && 'closed' in e.source ? (e.source as Window) : null;
  handleBillingMessage(store, msg, source);
}

/** The support subject of a failed payment, kept in one language for support's filters. */
export const paymentErrorSubject = (id: number | null) => `Payment Error (ProcessID ${processId(id) || '-'})`;

/** Success, cancel or error after the popup answered; 460 px wide. */
function BillingResultDialog() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const dialog = snap.ui.billing.dialog;
  const okRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  useModal(!!dialog, {
    rootRef,
    initialFocusRef: okRef,
    onEscape: () => {
      store.ui.billing.dialog = null;
    },
  });

  if (!dialog) return null;
  const close = () => {
    store.ui.billing.dialog = null;
  };
  const kind = dialog.kind;
  const subject = paymentErrorSubject(dialog.billingId);
  const mailto = `mailto:${snap.config.supportEmail}?subject=${encodeURIComponent(subject)}`;
  const contact = `/contact?subject=${encodeURIComponent(subject)}#contact`;
  const showErrors = kind === 'error' && dialog.errors.some((c) => c !== 'billing.error');

  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div
        className={`dialog billing-dialog billing-dialog-${kind}`}
        role={kind === 'success' ? 'dialog' : 'alertdialog'}
        aria-modal="true"
        aria-labelledby="billing-dialog-title"
        aria-describedby="billing-dialog-text"
        data-testid="billing-dialog"
        data-kind={kind}
      >
        <div className="billing-dialog-icon" aria-hidden="true">
          <Icon name={kind === 'success' ? 'coins' : 'warning'} size={36} />
        </div>
        <h2 id="billing-dialog-title">{t(`billing.dialog.${kind}.title`)}</h2>
        <p id="billing-dialog-text">{t(`billing.dialog.${kind}.text`)}</p>
        {showErrors && (
          <ul className="billing-errors">
            {errorTexts(t, dialog.errors).map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        )}
        {kind === 'success' && snap.user && (
          <p className="billing-balance">
            <Icon name="coins" size={20} />
            <span data-testid="billing-dialog-balance">{t('billing.balance', { count: snap.user.coins })}</span>
          </p>
        )}
        {dialog.billingId !== null && (
          <p className="billing-process">
            {t('billing.processId')} <strong data-testid="billing-process-id">{processId(dialog.billingId)}</strong>
          </p>
        )}
        {kind !== 'success' && (
          <div className="billing-contact">
            <p className="muted small">{t(`billing.dialog.${kind}.contact`)}</p>
            <p className="billing-contact-links">
              {kind === 'error' && (
                <a href={mailto} data-action="billing-contact-mail">
                  <Icon name="mail" size={16} /> {t('billing.dialog.mail')}
                </a>
              )}
              <a href={contact} data-action="billing-contact-form">
                {t('billing.dialog.contactForm')}
              </a>
            </p>
          </div>
        )}
        <div className="dialog-actions">
          <button ref={okRef} type="button" className="btn btn-primary" data-action="billing-dialog-ok" onClick={close}>
            {t('common.ok')}
          </button>
        </div>
      </div>
    </div>
  );
}
