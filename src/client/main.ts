import './styles/main.css';
import { createElement, startTransition, type ComponentType } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { subscribeKey } from 'valtio/utils';
import type { EmbeddedState } from '../shared/state';
import { createTranslator } from '../shared/translate';
import { islands, type IslandName } from './islands';
import { createApi } from './lib/api';
import { reloadAfterChunkFailure } from './lib/chunk-reload';
import { installErrorLog, logClientError } from './lib/error-log';
import { installLoadingOverlay } from './lib/loading';
import { registerServiceWorker } from './lib/service-worker';
import { startRealtime } from './lib/realtime';
import { setAppStore } from './state/app-store';
import { AppProviders } from './state/context';
import { createStore } from './state/store';

const stateEl = document.getElementById('__state');
const state = JSON.parse(stateEl?.textContent ?? '{}') as EmbeddedState;
const store = createStore(state);
setAppStore(store);
const t = createTranslator(state.messages, state.locale);
// The document embeds only the texts its first render used; the rest (menus, dialogs, errors)
// arrive before any island hydrates, so no later render meets a missing text. Without them
// (offline, an error) the islands still hydrate with the embedded ones.
const allTexts: Promise<unknown> = state.textsUrl
  ? fetch(state.textsUrl)
      .then((res) => (res.ok ? (res.json() as Promise<EmbeddedState['messages']>) : null))
      .then((all) => all && Object.assign(state.messages, all))
      .catch(() => null)
  : Promise.resolve();
const api = createApi(store);
installErrorLog(store, api);
installLoadingOverlay(store);

// A chunk of an older build may be gone after a deploy: reload (at most once a minute).
window.addEventListener('vite:preloadError', (e) => {
  e.preventDefault();
  reloadAfterChunkFailure();
});

function mount(el: HTMLElement, name: IslandName, hydrate: boolean): void {
  Promise.all([islands[name](), allTexts])
    .then(([mod]) => {
      const props = JSON.parse(el.dataset.props ?? '{}') as object;
      const Component = mod.default as ComponentType<object>;
      const app = createElement(AppProviders, { store, t, children: createElement(Component, props) });
      if (!hydrate) return createRoot(el).render(app);
      // As a transition, hydration yields to the browser every few milliseconds instead of one
      // long task per island (a click meanwhile still hydrates its target first and is replayed).
      startTransition(() => {
        hydrateRoot(el, app, { onRecoverableError: (error) => logClientError(store, api, `hydration: ${String(error)}`, [error], 2) });
      });
    })
    .catch((error: unknown) => {
      if (!reloadAfterChunkFailure()) logClientError(store, api, `island ${name} failed to load`, [error]);
    });
}

function mountAll(): void {
  for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = el.dataset.island as IslandName;
    if (!islands[name]) continue;
    if (el.dataset.members === '1' && !store.user) {
      // Rendered empty for a visitor: its code loads when they log in on this page.
      el.dataset.deferred = '1';
      const stop = subscribeKey(store, 'user', (user) => {
        if (!user) return;
        stop();
        delete el.dataset.deferred;
        mount(el, name, false);
      });
    } else mount(el, name, true);
  }
}

// The start in three tasks, not one: evaluating this bundle, then finding the islands and asking
// for their code, then opening the realtime socket. Each task stays short, so a tap meanwhile is
// answered at once (Total Blocking Time).
setTimeout(() => {
  mountAll();
  setTimeout(() => {
    try {
      startRealtime(store);
    } catch (error) {
      logClientError(store, api, 'realtime failed to start', [error]);
    }
    registerServiceWorker();
  });
});
