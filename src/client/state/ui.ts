import type { EmbeddedState } from '../../shared/state';
import type { BillingDialogState } from '../features/billing/billing.slice';

// The ui slice: which panels, dialogs and notices are open.

export interface ConfirmRequest {
  title: string;
  text: string;
  confirmLabel?: string;
  resolve: (ok: boolean) => void;
}

export interface UiSlice {
  hud: { msg: string; timeout: number } | null;
  visibility: { menu: boolean; messages: boolean; login: boolean };
  ui: {
    drawerOpen: boolean;
    splashOpen: boolean;
    consentOpen: boolean;
    updateNotice: boolean;
    snackbar: { id: number; text: string; timeout: number; action?: { label: string; href: string } } | null;
    confirm: ConfirmRequest | null;
    loading: boolean;
    /** The nickname dialog (openNicknameDialog in features/account/profile-actions.ts). */
    nicknameDialog: boolean;
    /** The visitor fingerprint gave up after FINGERPRINT_MAX_TRIES failed tries. */
    fingerprintFailed: boolean;
    /** The billing result dialog (success, cancel, error) after the payment popup answered. */
    billing: { dialog: BillingDialogState | null };
  };
}

export const uiSlice = (init: EmbeddedState): UiSlice => ({
  hud: null,
  visibility: { menu: false, messages: false, login: false },
  ui: {
    drawerOpen: false,
    splashOpen: init.splashOpen,
    consentOpen: init.consentOpen,
    updateNotice: false,
    snackbar: null,
    confirm: null,
    loading: false,
    nicknameDialog: false,
    fingerprintFailed: false,
    billing: { dialog: null },
  },
});
