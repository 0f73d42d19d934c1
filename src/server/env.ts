import type { i18n } from 'i18next';
import type { Locale } from '../shared/constants';
import type { LayoutName } from '../shared/layouts';
import type { Session, User } from '../shared/session';
import type { TFunction } from '../shared/translate';

export interface Bindings {
  DB: D1Database;
  LOBBY: DurableObjectNamespace;
  ASSETS: Fetcher;
  /** 'development' enables dev-only routes; anything else is production. */
  ENVIRONMENT?: string;
  SUPPORT_EMAIL?: string;
  ABUSE_EMAIL?: string;
  /** Where "leave" on the age splash sends the visitor. */
  SPLASH_EXIT_URL?: string;
  PASSWORD_PEPPER?: string;
}

export interface Variables {
  requestId: string;
  nonce: string;
  locale: Locale;
  i18n: i18n;
  t: TFunction;
  layout: LayoutName;
  headerHidden: boolean;
  session: Session;
  user: User | null;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
