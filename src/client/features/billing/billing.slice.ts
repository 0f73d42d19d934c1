// The billing slice: the voice-call checks (pay by phone); the result dialog is part of `ui`.

/** A billing result shown in the opener window (features/billing/billing-overlays.tsx). */
export interface BillingDialogState {
  kind: 'success' | 'cancel' | 'error';
  billingId: number | null;
  /** Error codes (translated under errors.*). */
  errors: string[];
  isPhoneCall: boolean;
}

/** The voice-call checks: off, pending (every 2.5 s) or active (every 10 s). */
export interface VoicecallCheckState {
  mode: 'off' | 'pending' | 'active';
  billingId: number | null;
  /** Pending checks resumed after a page load stop at this time (ms); null: no limit. */
  until: number | null;
}

export interface BillingSlice {
  /** Voice-call (pay by phone) checks of GET billing/check_phonecall. */
  voicecallCheck: VoicecallCheckState;
}

export const billingSlice = (): BillingSlice => ({ voicecallCheck: { mode: 'off', billingId: null, until: null } });
