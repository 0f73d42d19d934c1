import './styles/main.css';
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { EmbeddedState } from '../shared/state';
import { createTranslator } from '../shared/translate';
import { islands, type IslandName } from './islands';
import { createApi } from './lib/api';
import { reloadAfterChunkFailure } from './lib/chunk-reload';
import { installErrorLog, logClientError } from './lib/error-log';
import { installLoadingOverlay } from './lib/loading';
import { AppProviders } from './state/context';
import { createStore } from './state/store';

const stateEl = document.getElementById('__state');
const state = JSON.parse(stateEl?.textContent ?? '{}') as EmbeddedState;
const store = createStore(state);
const t = createTranslator(state.messages, state.locale);
const api = createApi(store);
installErrorLog(store, api);
installLoadingOverlay(store);

// A chunk of an older build may be gone after a deploy: reload (at most once a minute).
window.addEventListener('vite:preloadError', (e) => {
  e.preventDefault();
  reloadAfterChunkFailure();
});

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = el.dataset.island as IslandName;
  const load = islands[name];
  if (!load) continue;
  const props = JSON.parse(el.dataset.props ?? '{}') as object;
  load()
    .then((mod) => {
      const Component = mod.default as ComponentType<object>;
      hydrateRoot(el, createElement(AppProviders, { store, t, children: createElement(Component, props) }), {
        onRecoverableError: (error) => logClientError(store, api, `hydration: ${String(error)}`, [error], 2),
      });
    })
    .catch((error: unknown) => {
      if (!reloadAfterChunkFailure()) logClientError(store, api, `island ${name} failed to load`, [error]);
    });
}
void import('./lib/realtime').then((m) => m.startRealtime(store)).catch((error: unknown) => logClientError(store, api, 'realtime failed to start', [error]));
