import type { RootState } from './store';

// The live slice: which shows are online, written by the lobby socket (lib/realtime.ts).

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
