import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ReactNode } from 'react';
import { getCookie } from 'hono/cookie';
import { renderToString } from 'react-dom/server';
import { CONSENT_COOKIE } from '../../shared/constants';
import { BUILD_ID } from '../../shared/build';
import type { EmbeddedState, PageMessageKey } from '../../shared/state';
import { AppProviders } from '../../client/state/context';
import { createStore } from '../../client/state/store';
import type { AppEnv } from '../env';
import { config } from '../lib/config';
import { clientMessagesFor } from '../lib/i18n';
import { Document, type Head } from './document';

/** True when the worker runs inside Vite's dev server (npm run dev): assets come from Vite. */
const VITE_DEV = (import.meta as { env?: { DEV?: boolean } }).env?.DEV === true;

export function embeddedState(c: Context<AppEnv>, texts: readonly PageMessageKey[] = []): EmbeddedState {
  const url = new URL(c.req.url);
  const session = c.get('session');
  const consent = getCookie(c, CONSENT_COOKIE);
  return {
    layout: c.get('layout'),
    headerHidden: c.get('headerHidden'),
    locale: c.get('locale'),
    serverBuild: BUILD_ID,
    session,
    user: c.get('user'),
    splashOpen: !session.splash18_confirmed,
    consentOpen: consent !== '1' && consent !== '0',
    now: Date.now(),
    path: url.pathname,
    supportEmail: config(c.env).supportEmail,
    exitUrl: config(c.env).splashExitUrl,
    googleClientId: c.env.GOOGLE_CLIENT_ID ?? null,
    messages: clientMessagesFor(c.get('locale'), texts),
  };
}

/** Renders a full document: per-request store and translator, the page inside, the state embedded. */
export function renderPage(c: Context<AppEnv>, page: ReactNode, head: Head, status: ContentfulStatusCode = 200): Response {
  const state = embeddedState(c, head.texts);
  const store = createStore(state);
  const html = renderToString(
    <AppProviders store={store} t={c.get('t')}>
      <Document head={head} state={state} nonce={c.get('nonce')} dev={VITE_DEV}>
        {page}
      </Document>
    </AppProviders>,
  );
  return c.html(`<!DOCTYPE html>${html}`, status, {
    // A member's page carries their data (coins, nicknames, embedded state): never stored.
    'Cache-Control': c.get('user') ? 'no-store' : 'private, no-cache',
    Vary: 'Cookie, Accept-Language',
  });
}
