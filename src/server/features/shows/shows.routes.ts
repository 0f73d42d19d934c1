import { Hono } from 'hono';
import { SEARCH_CATEGORY_MIN_ID, SHOWS_PAGE_SIZE } from '../../../shared/constants';
import { parsePage } from '../../../shared/pagination';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { cachedCategories } from './category-cache';
import { activePromos, getShowDetail, queryShows, SHOW_COLUMNS, toShowSummary } from './shows.repo';

/** A list size from the query: default and maximum 36. */
export function parseLimit(value: string | undefined, max = SHOWS_PAGE_SIZE, fallback = max): number {
  if (!value || !/^\d{1,4}$/.test(value)) return fallback;
  return Math.min(max, Math.max(1, Number(value)));
}

export function parseId(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

// The hottest call of the site: identical list pages within a second are served from this
// isolate's memory. Live status reaches open pages over the lobby socket anyway, and an
// operator's status change clears the cache at once.
const LIST_CACHE_MS = 1_000;
const LIST_CACHE_MAX = 256;
const listCache = new Map<string, { at: number; body: string }>();

export function invalidateShowLists(): void {
  listCache.clear();
}

export const showsRoutes = new Hono<AppEnv>()
  .get('/shows', async (c) => {
    const locale = c.get('locale');
    const page = parsePage(c.req.query('page'));
    const pageFrom = c.req.query('page_from') ? parsePage(c.req.query('page_from')) : undefined;
    const requested = parseId(c.req.query('category'));
    const categories = await cachedCategories(c.env.DB, locale);
    // Unknown categories fall back to all shows.
    const categoryId = requested !== null && requested !== 0 && categories.some((cat) => cat.id === requested) ? requested : null;
    const limit = parseLimit(c.req.query('limit'));
    const key = `${locale}|${page}|${pageFrom ?? ''}|${limit}|${categoryId ?? ''}`;
    const hit = listCache.get(key);
    if (hit && Date.now() - hit.at < LIST_CACHE_MS) return c.body(hit.body, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
    const [list, promos] = await Promise.all([
      queryShows(c.env.DB, { page, pageFrom, limit, categoryId, locale }),
      page === 1 ? activePromos(c.env.DB, locale) : Promise.resolve([]),
    ]);
    const body = JSON.stringify({ ...list, more: list.current_page < list.last_page, category: categoryId ?? 0, promos });
    if (listCache.size >= LIST_CACHE_MAX) listCache.clear();
    listCache.set(key, { at: Date.now(), body });
    return c.body(body, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
  })
  .get('/shows/promos', async (c) => c.json({ data: await activePromos(c.env.DB, c.get('locale')) }))
  // "ma": the shows that have been live longest right now (the spec names the call only).
  .get('/shows/ma', async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT ${SHOW_COLUMNS} FROM shows s WHERE s.online = 1 ORDER BY s.online_since, s.id LIMIT ?`,
    )
      .bind(parseLimit(c.req.query('limit'), 36, 12))
      .all();
    return c.json({ data: results.map((r) => toShowSummary(r as never, c.get('locale'))) });
  })
  .get('/shows/online', async (c) => {
    // What a reconnecting page refetches: the ids of every show live now.
    const { results } = await c.env.DB.prepare('SELECT id FROM shows WHERE online = 1 ORDER BY id').all<{ id: number }>();
    return c.json({ data: results.map((r) => r.id) });
  })
  .get('/shows/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) throw new ApiError(404, 'not_found');
    const show = await getShowDetail(c.env.DB, id, c.get('locale'));
    if (!show) throw new ApiError(404, 'not_found');
    return c.json(show);
  })
  .get('/tags', async (c) => {
    const { results } = await c.env.DB.prepare(
      'SELECT t.id, t.slug, t.name_en, t.name_de, COUNT(st.show_id) AS count FROM tags t LEFT JOIN show_tags st ON st.tag_id = t.id GROUP BY t.id ORDER BY t.slug',
    ).all<{ id: number; slug: string; name_en: string; name_de: string; count: number }>();
    const de = c.get('locale') === 'de';
    return c.json({ data: results.map((t) => ({ id: t.id, slug: t.slug, name: de ? t.name_de : t.name_en, count: t.count })) });
  })
  .get('/categories', async (c) => {
    const all = await cachedCategories(c.env.DB, c.get('locale'));
    const list = all.filter((cat) => cat.id < SEARCH_CATEGORY_MIN_ID).map((cat) => ({ ...cat, cat: cat.name }));
    const search = Object.fromEntries(all.filter((cat) => cat.id >= SEARCH_CATEGORY_MIN_ID).map((cat) => [String(cat.id), { ...cat, cat: cat.name }]));
    return c.json({ categories: list, search_categories: search });
  });
