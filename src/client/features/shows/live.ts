import type { RootState } from '../../state/store';
import { useSnap } from '../../state/context';

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
