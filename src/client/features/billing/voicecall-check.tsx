import { useEffect } from 'react';
import { subscribe } from 'valtio';
import type { TFunction } from '../../../shared/translate';
import { api } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import type { RootState } from '../../state/store';
import {
  refetchUser,
  stopVoicecallChecks,
  VOICECALL_CHECK_ACTIVE_MS,
  VOICECALL_CHECK_PENDING_MS,
  VOICECALL_RESUME_MAX_MS,
  VOICECALL_SNACKBAR_AGAIN_MS,
  VOICECALL_SNACKBAR_MS,
} from './billing-actions';
import { closeBillingPopup, currentPopup, isBillingPath, isBillingPopupWindow, popupWasOpened, previousRoute } from './billing-popup';

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
export function VoicecallCheck() {
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
