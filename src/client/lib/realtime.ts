import { parseEvent, REALTIME_PATH, type RealtimeEvent, type ShowStatus } from '../../shared/realtime';
import { applyStatuses, rebuildOnline } from '../state/live';
import type { RootState } from '../state/store';
import { api } from './api';
import { openLiveSocket, wsUrl } from './live-socket';
import { dispatchRealtime } from './realtime-handlers';

// The live lobby client: one socket per page (lib/live-socket.ts), loaded lazily by main.ts after
// the islands, so partysocket stays out of the first-load JavaScript. show:bulkupdate writes store.live; on every
// reconnect (not the first connect) the online list is refetched, since updates sent while the
// socket was away are gone. Member events go to the handlers their slices registered (realtime-handlers.ts).

export interface LobbyHandle {
  /** Closes the socket and stops reconnecting (tests: simulate a lost connection). */
  disconnect(): void;
  /** Connects again (resetting the backoff). */
  reconnect(): void;
  readonly opens: number;
  readonly connected: boolean;
}

declare global {
  interface Window {
    __lobby?: LobbyHandle;
    __lobbyReconnect?: () => void;
  }
}

let started: LobbyHandle | null = null;

export function startRealtime(store: RootState): LobbyHandle {
  if (started) return started;
  /** Events that arrive while the online list is being refetched: applied again after it. */
  let buffered: ShowStatus[][] | null = null;
  let refetching: Promise<void> | null = null;

  const refetchOnline = (): Promise<void> => {
    if (refetching) return refetching;
    buffered = [];
    refetching = api()
      .get<{ data: number[] }>('shows/online')
      .then((res) => {
        rebuildOnline(store, Array.isArray(res?.data) ? res.data : []);
        for (const batch of buffered ?? []) applyStatuses(store, batch);
      })
      .catch(() => undefined)
      .finally(() => {
        buffered = null;
        refetching = null;
      });
    return refetching;
  };

  const handle = (event: RealtimeEvent) => {
    if (event.type !== 'show:bulkupdate') return dispatchRealtime(store, event);
    if (!Array.isArray(event.data)) return;
    const seq = Number(event.seq) || 0;
    // A gap in the sequence means batches were missed: fetch the whole picture again.
    const gap = store.live.seq > 0 && seq > store.live.seq + 1;
    store.live.seq = Math.max(store.live.seq, seq);
    applyStatuses(store, event.data);
    buffered?.push(event.data);
    if (gap) void refetchOnline();
  };

  const socket = openLiveSocket({
    url: () => wsUrl(REALTIME_PATH),
    parse: parseEvent,
    onEvent: handle,
    onStatus: (open, opens) => {
      store.live.connected = open;
      if (open && opens > 1) void refetchOnline();
    },
    minDelayMs: 500,
    jitterMs: 1000,
    maxDelayMs: 15_000,
  });

  // A page restored from the back/forward cache missed everything while it was frozen.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) void refetchOnline();
  });

  started = {
    disconnect: () => socket.close(),
    reconnect: () => socket.reconnect(),
    get opens() {
      return socket.opens;
    },
    get connected() {
      return socket.open;
    },
  };
  window.__lobby = started;
  window.__lobbyReconnect = () => socket.reconnect();
  return started;
}
