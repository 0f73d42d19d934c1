import { useEffect, useRef } from 'react';
import { subscribe } from 'valtio';
import { api } from '../../lib/api';
import { closeBillingPopup, currentPopup, isBillingPath, isBillingPopupWindow, parseBillingMessage, popupWasOpened, previousRoute, processId } from './billing-popup';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import type { RootState } from '../../state/store';
import type { TFunction } from '../../../shared/translate';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import {
  handleBillingMessage,
  refetchUser,
  stopVoicecallChecks,
  VOICECALL_CHECK_ACTIVE_MS,
  VOICECALL_CHECK_PENDING_MS,
  VOICECALL_RESUME_MAX_MS,
  VOICECALL_SNACKBAR_AGAIN_MS,
  VOICECALL_SNACKBAR_MS,
} from './billing-actions';
import { errorTexts } from './billing-data';
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

interface CheckResponse {
  status: 'none' | 'pending' | 'active' | 'ended';
  id: number | null;
  voicecall: boolean;
}

const ACTIVATED_KEY = 'voicecall:activated';

/**
 * The 5 s snackbar, and after it is gone 10 s more saying why the menus are limited (the spec's
 * buy-coins action would lead to a page a voice-call session may not open; "End call" is in the
 * notice instead).
 */
function announceVoicecall(store: RootState, t: TFunction): void {
  showSnackbar(store, t('voicecall.active'), { timeout: VOICECALL_SNACKBAR_MS });
  const first = store.ui.snackbar?.id;
  const unsubscribe = subscribe(store.ui, () => {
    if (store.ui.snackbar?.id === first) return;
    unsubscribe();
    // Replaced by another message: leave that one alone.
    if (store.ui.snackbar === null && store.session.voicecall) {
      showSnackbar(store, t('voicecall.activeAgain'), { timeout: VOICECALL_SNACKBAR_AGAIN_MS });
    }
  });
}

/**
 * GET billing/check_phonecall every 2.5 s while a phone payment is pending and every 10 s while
 * the call is active. Becoming active closes the popup, announces it and leaves the billing
 * page; the end of the call goes home. Closing the popup while pending stops the checks.
 */
function VoicecallCheck() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const mode = snap.voicecallCheck.mode;

  // On load: resume for an active call or a phone payment begun earlier.
  useEffect(() => {
    if (isBillingPopupWindow()) return;
    const s = store.session;
    if (s.voicecall) store.voicecallCheck = { mode: 'active', billingId: null, until: null };
    else if (s.phonecall_payment_type_id !== null && store.voicecallCheck.mode === 'off')
      store.voicecallCheck = { mode: 'pending', billingId: null, until: Date.now() + VOICECALL_RESUME_MAX_MS };
    try {
      if (sessionStorage.getItem(ACTIVATED_KEY)) {
        sessionStorage.removeItem(ACTIVATED_KEY);
        if (s.voicecall) announceVoicecall(store, t);
      }
    } catch {
      // storage may be unavailable
    }
  }, [store, t]);

  useEffect(() => {
    if (mode === 'off' || isBillingPopupWindow()) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const becameActive = () => {
      store.voicecallCheck = { ...store.voicecallCheck, mode: 'active', until: null };
      store.session.voicecall = true;
      // The call was charged: the coins are in the account now.
      void refetchUser(store);
      // The page shows "End call" from now on, so the phone window is no longer needed.
      closeBillingPopup();
      if (isBillingPath(location.pathname)) {
        // The billing page is not for voice-call sessions: back to where the member came from.
        try {
          sessionStorage.setItem(ACTIVATED_KEY, '1');
        } catch {
          // the snackbar is then skipped
        }
        location.assign(previousRoute());
        return;
      }
      announceVoicecall(store, t);
    };

    const ended = () => {
      stopVoicecallChecks(store);
      location.assign('/');
    };

    const tick = async () => {
      if (stopped) return;
      const state = store.voicecallCheck;
      if (state.mode === 'pending') {
        // The member closed the payment window: no phone payment is under way any more.
        if (popupWasOpened() && !currentPopup()) return stopVoicecallChecks(store);
        if (state.until !== null && Date.now() > state.until) return stopVoicecallChecks(store);
      }
      let res: CheckResponse | null = null;
      try {
        res = await api().get<CheckResponse>('billing/check_phonecall');
      } catch {
        res = null;
      }
      if (stopped) return;
      if (res) {
        const current = store.voicecallCheck;
        if (res.status === 'active') {
          if (current.mode === 'pending') return becameActive();
        } else if (res.status === 'ended' || res.status === 'none') {
          const ours = current.billingId !== null && res.id === current.billingId;
          if (current.mode === 'active' || (ours && res.status === 'ended')) return ended();
          return stopVoicecallChecks(store);
        }
      }
      timer = setTimeout(() => void tick(), store.voicecallCheck.mode === 'active' ? VOICECALL_CHECK_ACTIVE_MS : VOICECALL_CHECK_PENDING_MS);
    };

    timer = setTimeout(() => void tick(), mode === 'active' ? VOICECALL_CHECK_ACTIVE_MS : VOICECALL_CHECK_PENDING_MS);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [mode, store, t]);

  return null;
}
