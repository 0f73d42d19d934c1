import type { Locale } from '../../../shared/constants';
import { CATEGORY_BAR_EXTRAS, CATEGORY_BAR_FIRST, TOY_CONTROL_CATEGORY_ID } from '../../../shared/constants';
import { listCategories, type CategoryWithCounts } from './shows.repo';

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
