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

/** The root state shared by every island (spec part 1 section 3). */
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
  config: { supportEmail: string; exitUrl: string };
  ui: {
    drawerOpen: boolean;
    splashOpen: boolean;
    consentOpen: boolean;
    updateNotice: boolean;
    snackbar: { id: number; text: string; timeout: number; action?: { label: string; href: string } } | null;
    confirm: ConfirmRequest | null;
    loading: boolean;
  };
  errorLog: ErrorLogEntry[];
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
    config: { supportEmail: init.supportEmail, exitUrl: init.exitUrl },
    ui: {
      drawerOpen: false,
      splashOpen: init.splashOpen,
      consentOpen: init.consentOpen,
      updateNotice: false,
      snackbar: null,
      confirm: null,
      loading: false,
    },
    errorLog: [],
  });
}
