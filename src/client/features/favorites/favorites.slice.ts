import { onRealtime } from '../../lib/realtime-handlers';
import type { Favorite } from '../../../shared/favorites';

// The favourites slice: the member's favourites (the top bar menu, the profile list), the hearts'
// state after a toggle (overriding what the page was rendered with), and the last
// "favourite is online" notice from the lobby socket (written by the handler below).

export interface FavoriteNotice {
  seq: number;
  showId: number;
  name: string;
  slugName: string;
}

export interface FavoritesSlice {
  favorites: {
    /** null until loaded. */
    list: Favorite[] | null;
    /** show id -> favourite, for hearts toggled (or loaded) on this page. */
    marks: Record<number, boolean>;
    notice: FavoriteNotice | null;
  };
}

export const favoritesSlice = (): FavoritesSlice => ({ favorites: { list: null, marks: {}, notice: null } });

let noticeSeq = 0;

/** Stores a `user:favorite_online` event for the favourites island to announce. */
function favoriteOnlineNotice(store: FavoritesSlice, e: { showId?: unknown; name?: unknown; slugName?: unknown }): void {
  if (typeof e.showId !== 'number' || typeof e.name !== 'string' || typeof e.slugName !== 'string') return;
  store.favorites.notice = { seq: ++noticeSeq, showId: e.showId, name: e.name, slugName: e.slugName };
}

// A favourite went online inside the member's window: the favourites island announces it.
onRealtime('user:favorite_online', favoriteOnlineNotice);
