import { subscribe } from 'valtio';
import type { RootState } from '../../state/store';
import type { PlayerState } from './player.slice';

// The video player's saved state (the slice itself is in player.slice.ts, part of every page's
// store; this module loads with the player): volume, mute and where each video part was left,
// kept in localStorage so a reload or the next visit continues there. The server renders the defaults; the player
// restores the saved state after hydration (the SSR markup and the first client render agree).

export const PLAYER_STORAGE_KEY = 'video_player';
/** Positions kept: the most recently watched parts. */
export const PLAYER_POSITIONS_MAX = 50;

export const positionKey = (videoId: number, part: number, full: boolean) => `${videoId}:${part}:${full ? 'full' : 'preview'}`;

/** Whatever storage held, made safe: a volume in 0..1, finite positions, at most PLAYER_POSITIONS_MAX. */
export function normalizePlayer(value: unknown): Omit<PlayerState, 'restored'> {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const volume = typeof v.volume === 'number' && Number.isFinite(v.volume) ? Math.min(1, Math.max(0, v.volume)) : 1;
  const positions: Record<string, number> = {};
  if (v.positions && typeof v.positions === 'object') {
    const entries = Object.entries(v.positions as Record<string, unknown>).filter(
      ([k, p]) => /^\d+:\d+:(full|preview)$/.test(k) && typeof p === 'number' && Number.isFinite(p) && p >= 0,
    );
    for (const [k, p] of entries.slice(-PLAYER_POSITIONS_MAX)) positions[k] = p as number;
  }
  return { volume, muted: v.muted === true, positions };
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // blocked storage (privacy settings)
  }
}

/** Loads the saved state once and saves every later change (browser only). */
export function restorePlayer(store: RootState): void {
  if (store.player.restored) return;
  const ls = storage();
  try {
    Object.assign(store.player, normalizePlayer(JSON.parse(ls?.getItem(PLAYER_STORAGE_KEY) ?? '{}')));
  } catch {
    // unreadable: the defaults stay
  }
  store.player.restored = true;
  subscribe(store.player, () => {
    try {
      const { volume, muted, positions } = store.player;
      ls?.setItem(PLAYER_STORAGE_KEY, JSON.stringify({ volume, muted, positions }));
    } catch {
      // full or blocked storage: nothing is kept
    }
  });
}

/** Remembers where a part was left (moved to the end, so the oldest go first). */
export function rememberPosition(store: RootState, key: string, seconds: number): void {
  const positions = store.player.positions;
  delete positions[key];
  positions[key] = Math.max(0, Math.round(seconds * 10) / 10);
  const keys = Object.keys(positions);
  for (const k of keys.slice(0, Math.max(0, keys.length - PLAYER_POSITIONS_MAX))) delete positions[k];
}
