import { useSnap } from './context';
import type { RootState } from './store';

// The live slice: which shows are online, written by the lobby socket (lib/realtime.ts) and read
// by every tile and page that shows a status.

export interface LiveSlice {
  /** Live show states from the lobby socket; `full` once rebuilt from /api/shows/online. */
  live: { online: Record<number, boolean>; seq: number; full: boolean; connected: boolean };
}

export const liveSlice = (): LiveSlice => ({ live: { online: {}, seq: 0, full: false, connected: false } });

type Live = Pick<RootState['live'], 'online' | 'full'>;

/**
 * A show's online state: what the lobby last said about it, else (once the map was rebuilt from
 * /api/shows/online) offline, else what the page was rendered with.
 */
export function liveOnline(live: Live, id: number, fallback: boolean): boolean {
  const v = live.online[id];
  if (v !== undefined) return v;
  return live.full ? false : fallback;
}

/** The same inside a component, re-rendering when this show's state changes. */
export function useOnline(id: number, fallback: boolean): boolean {
  const snap = useSnap();
  return liveOnline(snap.live, id, fallback);
}

/** Writes a show:bulkupdate into the store. */
export function applyStatuses(store: RootState, data: readonly { id: number; online: boolean }[]): void {
  for (const s of data) if (typeof s?.id === 'number') store.live.online[s.id] = s.online === true;
}

/** Rebuilds the live map from the ids of every show live now. */
export function rebuildOnline(store: RootState, onlineIds: readonly number[]): void {
  const next: Record<number, boolean> = {};
  for (const id of onlineIds) if (typeof id === 'number') next[id] = true;
  // Keep what the page knows as explicit offline, so absent ids read as offline either way.
  for (const key of Object.keys(store.live.online)) if (!(key in next)) next[Number(key)] = false;
  store.live.online = next;
  store.live.full = true;
}
