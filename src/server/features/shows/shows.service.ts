import type { Locale } from '../../../shared/constants';
import { CATEGORY_BAR_EXTRAS, CATEGORY_BAR_FIRST, TOY_CONTROL_CATEGORY_ID } from '../../../shared/constants';
import type { Bindings } from '../../env';
import { publishShowStatus } from '../../realtime/shards';
import { listCategories, type CategoryWithCounts } from './categories.repo';
import { randomShows, setShowsOnline, type StatusChange } from './show-status.repo';
import { queryShows, type ShowQuery } from './shows.repo';
import { tagNames } from './categories.repo';
import { favoriteShowIds, markFavorites, notifyFavoritesOnline } from '../favorites/favorites.service';

// Categories change only with a deploy or an admin edit; a short per-isolate cache keeps
// the category bar off the database on every page view. The counts leave out the shows hidden
// from the visitor's place (geo-blocking): the hidden ids are part of the key.
const TTL_MS = 60_000;
const CACHE_MAX = 256;
const cache = new Map<string, { at: number; value: Promise<CategoryWithCounts[]> }>();

/** The categories with counts of the shows a place sees (`hidden`: the ids hidden from it, c.var.hiddenShows()). */
export function cachedCategories(db: D1Database, locale: Locale, hidden: readonly number[], now = Date.now()): Promise<CategoryWithCounts[]> {
  const key = `${locale}|${hidden.join(',')}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const value = listCategories(db, locale, hidden);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, { at: now, value });
  value.catch(() => cache.delete(key));
  return value;
}

/** Category bar: the first 3 categories, then toy control (20), then the extras. */
export function categoryBarItems(all: CategoryWithCounts[]): CategoryWithCounts[] {
  const byId = new Map(all.map((c) => [c.id, c]));
  const first = all.filter((c) => !c.is_search && c.id !== TOY_CONTROL_CATEGORY_ID).slice(0, CATEGORY_BAR_FIRST);
  const rest = [TOY_CONTROL_CATEGORY_ID, ...CATEGORY_BAR_EXTRAS].map((id) => byId.get(id)).filter((c): c is CategoryWithCounts => !!c);
  return [...first, ...rest];
}

// The hottest call of the site: identical list pages within a second are served from this
// isolate's memory. Live status reaches open pages over the lobby socket anyway. An operator's
// status change clears the cache of the isolate that served it; other isolates serve their copy
// until it is a second old.
const LIST_CACHE_MS = 1_000;
const LIST_CACHE_MAX = 256;
const listCache = new Map<string, { at: number; body: string }>();

/** The JSON body of a show list page, from this isolate's cache when it is fresh enough. */
export async function cachedListBody(key: string, make: () => Promise<string>): Promise<string> {
  const hit = listCache.get(key);
  if (hit && Date.now() - hit.at < LIST_CACHE_MS) return hit.body;
  const body = await make();
  if (listCache.size >= LIST_CACHE_MAX) listCache.clear();
  listCache.set(key, { at: Date.now(), body });
  return body;
}

function invalidateShowLists(): void {
  listCache.clear();
}

/**
 * Sets shows online or offline, and every open page learns it; answers the ids that exist.
 * Members whose favourite went online inside their window are told after the status push, as
 * deferred work (`defer`: the request's waitUntil), so the fan-out never waits for it.
 */
export async function changeShowStatus(env: Bindings, changes: StatusChange[], defer?: (work: Promise<unknown>) => void): Promise<number[]> {
  const ids = await setShowsOnline(env.DB, changes);
  if (ids.length === 0) return ids;
  invalidateShowLists();
  await publishShowStatus(env, changes.filter((c) => ids.includes(c.id)));
  const online = changes.filter((c) => c.online && ids.includes(c.id)).map((c) => c.id);
  if (online.length) {
    const work = notifyFavoritesOnline(env, online).catch((e: unknown) => console.error(JSON.stringify({ type: 'favorite_notify_failed', error: String(e) })));
    if (defer) defer(work);
    else await work;
  }
  return ids;
}

/** Local development's simulator: `count` random shows flipped online/offline in D1 (not pushed); answers the changes. */
export async function flipRandomShows(db: D1Database, count: number): Promise<StatusChange[]> {
  const changes = (await randomShows(db, count)).map((s) => ({ id: s.id, online: !s.online }));
  await setShowsOnline(db, changes);
  return changes;
}

/** The member's favourites marked in a list of shows (one query; none for visitors). */
export async function withFavorites<T extends { id: number; isFavorite?: boolean }>(db: D1Database, userId: number | null, shows: Promise<T[]> | T[]): Promise<T[]> {
  const [list, ids] = await Promise.all([shows, favoriteShowIds(db, userId)]);
  return markFavorites(list, ids);
}

/** The member's favourite ids (empty for visitors), to run beside a list query. */
export const memberFavoriteIds = (db: D1Database, userId: number | null) => favoriteShowIds(db, userId);
/** Marks isFavorite in a list from ids fetched beside it. */
export const markShows = <T extends { id: number; isFavorite?: boolean }>(shows: T[], ids: Set<number>): T[] => markFavorites(shows, ids);

// What the search feature reads: the same query the show lists use (videos and galleries: the store).
export async function searchShows(db: D1Database, q: ShowQuery & { userId?: number | null }) {
  const [list, ids] = await Promise.all([queryShows(db, q), favoriteShowIds(db, q.userId ?? null)]);
  return ids.size === 0 ? list : { ...list, data: markFavorites(list.data, ids) };
}
/** The names of tag slugs in the locale, in their order. */
export const tagNamesFor = (db: D1Database, slugs: string[], locale: Locale) => tagNames(db, slugs, locale);
