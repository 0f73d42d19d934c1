import type { Locale } from './constants';
import type { LayoutName } from './layouts';
import type { Session, User } from './session';
import type { Resources } from './translate';

/** What the server embeds in every document for the islands. */
export interface EmbeddedState {
  layout: LayoutName;
  headerHidden: boolean;
  locale: Locale;
  /** The worker's build id; the client compares it with its own bundle's. */
  serverBuild: string;
  session: Session;
  user: User | null;
  splashOpen: boolean;
  consentOpen: boolean;
  now: number;
  path: string;
  supportEmail: string;
  exitUrl: string;
  /** Google Identity Services client id; null hides third-party sign-in. */
  googleClientId: string | null;
  /** The session's CSRF token for forms that post without script (hidden `_token`); '' when none. */
  csrfToken: string;
  /** The groups of texts this document's first render used (what hydration needs). */
  messages: Resources;
  /** All texts of the islands (/i18n/{locale}.{hash}.json), loaded before hydration; absent in tests. */
  textsUrl?: string;
}

/** Top-level locale keys the islands of every page use; the rest of the texts stay on the server. */
export const CLIENT_MESSAGE_KEYS = ['common', 'nav', 'splash', 'consent', 'update', 'errors', 'drawer', 'layouts', 'languages', 'auth', 'profile', 'incentive', 'welcome', 'shows', 'search', 'pagination', 'billing', 'coupons', 'voicecall', 'game', 'messagesMenu', 'favorites'] as const;
/** Locale keys only some pages' islands use (the page names them: show pages the chat and video, /studio the chat and studio). */
export const PAGE_MESSAGE_KEYS = ['chat', 'studio', 'video', 'store', 'contest', 'messages', 'inbox', 'operator', 'restriction', 'reports', 'applications'] as const;
export type PageMessageKey = (typeof PAGE_MESSAGE_KEYS)[number];
