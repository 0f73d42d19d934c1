import type { RootState } from './store';

// The document's store for feature actions that run outside a component (socket events, timers,
// the room's video): main.ts sets it once, in the browser. The server never sets it (it renders
// with a store per request through <AppProviders>), so an action run there fails loudly instead
// of sharing state between requests. Components use useStore()/useSnap() (context.tsx).

let current: RootState | null = null;

/** main.ts: the document's store, made once. */
export function setAppStore(store: RootState): void {
  current = store;
}

/** The document's store (browser only, after main.ts made it). */
export function appStore(): RootState {
  if (!current) throw new Error('store used before main.ts created it');
  return current;
}
