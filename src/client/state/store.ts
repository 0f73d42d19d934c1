import { proxy } from 'valtio';
import { BUILD_ID } from '../../shared/build';
import type { EmbeddedState } from '../../shared/state';
import type { Session, User } from '../../shared/session';

export interface ErrorLogEntry {
  created: number;
  message: string;
  level: 1 | 2 | 3 | 4;
  userAgent: string;
  prevRoute: string | null;
  currentRoute: string;
  objects: unknown[];
}

export interface ConfirmRequest {
  title: string;
  text: string;
  confirmLabel?: string;
  resolve: (ok: boolean) => void;
}

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

/** The root state shared by every island. */
export interface RootState {
  layout: EmbeddedState['layout'];
  headerHidden: boolean;
  locale: EmbeddedState['locale'];
  path: string;
  now: number;
  clientBuild: string;
  serverBuild: string;
  session: Session;
  user: User | null;
  registerEmail: string | null;
  registerEmailGoogle: string | null;
  googleConsent: boolean;
  hud: { msg: string; timeout: number } | null;
  visibility: { menu: boolean; messages: boolean; login: boolean };
  config: { supportEmail: string; exitUrl: string; googleClientId: string | null };
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
  /** Voice-call (pay by phone) checks of GET billing/check_phonecall. */
  voicecallCheck: VoicecallCheckState;
  errorLog: ErrorLogEntry[];
  /** Live show states from the lobby socket (lib/realtime.ts); `full` once rebuilt from /api/shows/online. */
  live: { online: Record<number, boolean>; seq: number; full: boolean; connected: boolean };
  /** Unread message count pushed by user:mc. */
  messagesCount: number;
}

/** One store per document in the browser, one per request on the server. */
export function createStore(init: EmbeddedState): RootState {
  return proxy<RootState>({
    layout: init.layout,
    headerHidden: init.headerHidden,
    locale: init.locale,
    path: init.path,
    now: init.now,
    clientBuild: BUILD_ID,
    serverBuild: init.serverBuild,
    session: init.session,
    user: init.user,
    registerEmail: null,
    registerEmailGoogle: null,
    googleConsent: false,
    hud: null,
    visibility: { menu: false, messages: false, login: false },
    config: { supportEmail: init.supportEmail, exitUrl: init.exitUrl, googleClientId: init.googleClientId ?? null },
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
    voicecallCheck: { mode: 'off', billingId: null, until: null },
    errorLog: [],
    live: { online: {}, seq: 0, full: false, connected: false },
    messagesCount: 0,
  });
}
