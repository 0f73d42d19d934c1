import type { Favorite, FavoriteUpdate, FavoritesAnswer, HistoryAnswer, HistoryItem } from '../../../shared/favorites';
import type { TFunction } from '../../../shared/translate';
import { api, ApiFailure } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import type { RootState } from '../../state/store';
import { errorText } from '../../ui/error-text';

// The favourites' and history's API calls and what they change in the store.

/** The first field error of a failure (spec: "favourite create 422: first error shown"), else its message. */
export function firstError(t: TFunction, e: unknown): string {
  if (e instanceof ApiFailure) {
    const first = Object.values(e.errors).find((codes) => codes.length > 0)?.[0];
    return errorText(t, first ?? e.message);
  }
  return errorText(t, 'network_error');
}

export async function loadFavorites(store: RootState): Promise<Favorite[]> {
  const answer = await api().get<FavoritesAnswer>('user/favorites');
  const list = Array.isArray(answer?.data) ? answer.data : [];
  store.favorites.list = list;
  for (const f of list) store.favorites.marks[f.id] = true;
  return list;
}

/** Adds or removes a show; the heart follows at once and goes back if the call fails. */
export async function toggleFavorite(store: RootState, t: TFunction, show: { id: number; name: string }, isFav: boolean): Promise<void> {
  store.favorites.marks[show.id] = !isFav;
  try {
    if (isFav) {
      await api().delete(`favorites/${show.id}`);
      if (store.favorites.list) store.favorites.list = store.favorites.list.filter((f) => f.id !== show.id);
      showSnackbar(store, t('favorites.removed', { name: show.name }), { timeout: 3000 });
    } else {
      const fav = await api().post<Favorite>(`favorites/${show.id}`);
      if (store.favorites.list && !store.favorites.list.some((f) => f.id === show.id)) store.favorites.list = [...store.favorites.list, fav];
      showSnackbar(store, t('favorites.added', { name: show.name }), { timeout: 3000 });
    }
  } catch (e) {
    // Removing one that is already gone is what was wanted.
    if (isFav && e instanceof ApiFailure && e.status === 404) return;
    store.favorites.marks[show.id] = isFav;
    showSnackbar(store, firstError(t, e));
  }
}

export async function removeFavorite(store: RootState, id: number): Promise<void> {
  await api()
    .delete(`favorites/${id}`)
    .catch((e: unknown) => {
      if (!(e instanceof ApiFailure && e.status === 404)) throw e;
    });
  store.favorites.marks[id] = false;
  if (store.favorites.list) store.favorites.list = store.favorites.list.filter((f) => f.id !== id);
}

export async function saveFavoriteWindow(store: RootState, update: FavoriteUpdate): Promise<Favorite> {
  const fav = await api().put<Favorite>(`favorites/${update.id}`, update);
  if (store.favorites.list) store.favorites.list = store.favorites.list.map((f) => (f.id === fav.id ? fav : f));
  return fav;
}

export async function loadHistory(): Promise<HistoryItem[]> {
  const answer = await api().get<HistoryAnswer>('user/history');
  return Array.isArray(answer?.data) ? answer.data : [];
}

export const clearHistory = () => api().delete('user/history');

/** Records the show page a member opened (history). */
export const recordVisit = (showId: number) => api().post(`user/history/${showId}`);
