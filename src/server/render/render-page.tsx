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
import type { TFunction } from '../../shared/translate';
import { clientMessagesFor, clientTextsFile, embeddedMessagesFor } from '../lib/i18n';
import { Document, safeJson, type Head } from './document';

/** True when the worker runs inside Vite's dev server (npm run dev): assets come from Vite. */
const VITE_DEV = (import.meta as { env?: { DEV?: boolean } }).env?.DEV === true;

export function embeddedState(c: Context<AppEnv>, texts: readonly PageMessageKey[] = []): EmbeddedState {
  const locale = c.get('locale');
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
    csrfToken: c.get('csrfToken') ?? '',
    messages: clientMessagesFor(locale, texts),
    textsUrl: `/i18n/${clientTextsFile(locale).name}`,
  };
}

/** Stands for the state script's content until the render has shown which texts it used. */
const STATE_SLOT = '__livecam_state_slot__';

/** Renders a full document: per-request store and translator, the page inside, the state embedded. */
export function renderPage(c: Context<AppEnv>, page: ReactNode, head: Head, status: ContentfulStatusCode = 200): Response {
  const state = embeddedState(c, head.texts);
  const store = createStore(state);
  // The texts the render asks for are the ones hydration needs: only those are embedded; the
  // islands load all their texts (/i18n/...) before they hydrate.
  const used = new Set<string>();
  const serverT = c.get('t');
  const t: TFunction = (key, vars) => {
    used.add(key);
    return serverT(key, vars);
  };
  const html = renderToString(
    <AppProviders store={store} t={t}>
      <Document head={head} state={state} stateJson={STATE_SLOT} nonce={c.get('nonce')} dev={VITE_DEV}>
        {page}
      </Document>
    </AppProviders>,
  );
  const json = safeJson({ ...state, messages: embeddedMessagesFor(state.locale, used) });
  const at = html.lastIndexOf(STATE_SLOT);
  const body = at < 0 ? html : `${html.slice(0, at)}${json}${html.slice(at + STATE_SLOT.length)}`;
  return c.html(`<!DOCTYPE html>${body}`, status, {
    // A member's page carries their data (coins, nicknames, embedded state): never stored.
    'Cache-Control': c.get('user') ? 'no-store' : 'private, no-cache',
    Vary: 'Cookie, Accept-Language',
  });
}
