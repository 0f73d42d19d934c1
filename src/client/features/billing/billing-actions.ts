import { VOICECALL_CHECK_ACTIVE_MS, VOICECALL_CHECK_PENDING_MS } from '../../../shared/constants';
import type { Session, User } from '../../../shared/session';
import { api } from '../../lib/api';
import { BILLING_SUCCESS_EVENT, closeBillingPopup, type BillingMessage } from './billing-popup';
import type { RootState } from '../../state/store';

/** The success dialog stays a moment with the popup still open, then the popup closes. */
export const SUCCESS_POPUP_CLOSE_MS = 2_000;
/** Voice-call snackbars: first 5 s, then again 10 s with a buy-coins action. */
export const VOICECALL_SNACKBAR_MS = 5_000;
export const VOICECALL_SNACKBAR_AGAIN_MS = 10_000;
/**
 * Pending checks resumed on a page load (phone fields on the session, no popup known) end after
 * this long: an abandoned phone payment must not poll forever.
 */
export const VOICECALL_RESUME_MAX_MS = 5 * 60_000;

export { VOICECALL_CHECK_ACTIVE_MS, VOICECALL_CHECK_PENDING_MS };

/** GET auth/user into the store (after a payment). */
export async function refetchUser(store: RootState): Promise<void> {
  try {
    const res = await api().get<{ user: User }>('auth/user');
    if (res?.user) store.user = res.user;
  } catch {
    // the balance also arrives over the live socket
  }
}

/** The fetchUser window message: the user again, or a fresh session when logged out. */
export async function fetchUser(store: RootState): Promise<void> {
  if (store.user) {
    await refetchUser(store);
    return;
  }
  try {
    const res = await api().get<{ session: Session; user: User | null }>('session/init');
    if (res?.user) store.user = res.user;
  } catch {
    // nothing to update
  }
}

export function startVoicecallChecks(store: RootState, billingId: number | null): void {
  if (store.voicecallCheck.mode === 'active') return;
  store.voicecallCheck = { mode: 'pending', billingId, until: null };
}

export function stopVoicecallChecks(store: RootState): void {
  store.voicecallCheck = { mode: 'off', billingId: null, until: null };
}

/**
 * "End call": POST billing/end_phonecall hangs up server-side and the session leaves voice-call
 * mode; then home, as when the check finds the call over. False when the call could not be ended.
 */
export async function endVoicecall(store: RootState): Promise<boolean> {
  try {
    const res = await api().post<{ status: string; session: Session }>('billing/end_phonecall');
    if (res?.session) store.session = res.session;
  } catch {
    return false;
  }
  stopVoicecallChecks(store);
  location.assign('/');
  return true;
}

/** Applies a window message of the payment popup in the opener. */
export function handleBillingMessage(store: RootState, msg: BillingMessage, source: Window | null): void {
  switch (msg.kind) {
    case 'result': {
      store.ui.billing.dialog = { kind: msg.result === 'billing.success' ? 'success' : msg.result === 'billing.cancel' ? 'cancel' : 'error', billingId: msg.billingId, errors: msg.errors, isPhoneCall: msg.isPhoneCall };
      if (msg.result === 'billing.success') {
        void refetchUser(store);
        window.dispatchEvent(new CustomEvent(BILLING_SUCCESS_EVENT, { detail: { billingId: msg.billingId } }));
        closeBillingPopup(SUCCESS_POPUP_CLOSE_MS, source);
      } else {
        closeBillingPopup(0, source);
        if (msg.isPhoneCall && store.voicecallCheck.mode === 'pending') stopVoicecallChecks(store);
      }
      return;
    }
    case 'initVoicecall':
      startVoicecallChecks(store, msg.billingId);
      return;
    case 'fetchUser':
      void fetchUser(store);
      return;
  }
}
