import type { Locale } from '../../../shared/constants';
import { CATEGORY_BAR_EXTRAS, CATEGORY_BAR_FIRST, TOY_CONTROL_CATEGORY_ID } from '../../../shared/constants';
import type { Bindings } from '../../env';
import { publishShowStatus } from '../../realtime/shards';
import { listCategories, type CategoryWithCounts } from './categories.repo';
import { setShowsOnline, type StatusChange } from './show-status.repo';
import { queryShows, type ShowQuery } from './shows.repo';
import { tagNames } from './categories.repo';

// Categories change only with a deploy or an admin edit; a short per-isolate cache keeps
// the category bar off the database on every page view.
const TTL_MS = 60_000;
const cache = new Map<Locale, { at: number; value: Promise<CategoryWithCounts[]> }>();

export function cachedCategories(db: D1Database, locale: Locale, now = Date.now()): Promise<CategoryWithCounts[]> {
  const hit = cache.get(locale);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const value = listCategories(db, locale);
  cache.set(locale, { at: now, value });
  value.catch(() => cache.delete(locale));
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

/** Sets shows online or offline, and every open page learns it; answers the ids that exist. */
export async function changeShowStatus(env: Bindings, changes: StatusChange[]): Promise<number[]> {
  const ids = await setShowsOnline(env.DB, changes);
  if (ids.length === 0) return ids;
  invalidateShowLists();
  await publishShowStatus(env, changes.filter((c) => ids.includes(c.id)));
  return ids;
}

// What the search feature reads: the same query the show lists use (videos and galleries: the store).
export const searchShows = (db: D1Database, q: ShowQuery) => queryShows(db, q);
/** The names of tag slugs in the locale, in their order. */
export const tagNamesFor = (db: D1Database, slugs: string[], locale: Locale) => tagNames(db, slugs, locale);
