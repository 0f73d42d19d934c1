import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { SEARCH_CATEGORY_MIN_ID } from '../../../shared/constants';
import { parsePage } from '../../../shared/pagination';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { idParam, limitParam, pageParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { withoutHidden } from '../../lib/geo-hidden';
import { listTags } from './categories.repo';
import { longestOnline, onlineShowIds } from './show-status.repo';
import { activePromos, getShowDetail, queryShows } from './shows.repo';
import { cachedCategories, cachedListBody, markShows, memberFavoriteIds, withFavorites } from './shows.service';
import type { CategoriesAnswer, DataAnswer, ShowDetailAnswer, ShowListAnswer, TagItem } from '../../../shared/api';
import type { Promo, ShowSummary } from '../../../shared/shows';

const JSON_TYPE = { 'Content-Type': 'application/json; charset=UTF-8' };

const listQuery = z.object({
  page: pageParam,
  // Infinite scroll asks for the pages from `page_from` to `page` at once.
  page_from: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => (v ? parsePage(v) : undefined)),
  category: idParam,
  limit: limitParam(),
});

/** /api/shows */
export const showsRoutes = new Hono<AppEnv>()
  .get('/', zValidator('query', listQuery, validationHook), async (c) => {
    const locale = c.get('locale');
    const { page, page_from: pageFrom, category: requested, limit } = c.req.valid('query');
    // The geo decision is part of the key: a place that does not see a show never gets a body that lists it.
    const hidden = await c.var.hiddenShows();
    const categories = await cachedCategories(c.env.DB, locale, hidden);
    // Unknown categories fall back to all shows.
    const categoryId = requested !== null && requested !== 0 && categories.some((cat) => cat.id === requested) ? requested : null;
    const favorites = memberFavoriteIds(c.env.DB, c.get('user')?.id ?? null);
    const body = await cachedListBody(`${locale}|${page}|${pageFrom ?? ''}|${limit}|${categoryId ?? ''}|${hidden.join(',')}`, async () => {
      const [list, promos] = await Promise.all([
        queryShows(c.env.DB, { page, pageFrom, limit, categoryId, locale, hidden }),
        page === 1 ? activePromos(c.env.DB, locale) : Promise.resolve([]),
      ]);
      const shown = withoutHidden(promos, hidden, (p) => p.show_id);
      return JSON.stringify({ ...list, more: list.current_page < list.last_page, category: categoryId ?? 0, promos: shown } satisfies ShowListAnswer);
    });
    // The cached body is everyone's; a member's favourites are marked on a copy (one query, run beside it).
    const ids = await favorites;
    if (ids.size === 0) return c.body(body, 200, JSON_TYPE);
    const answer = JSON.parse(body) as ShowListAnswer;
    answer.data = markShows(answer.data, ids);
    answer.promos = answer.promos.map((p) => ({ ...p, show: markShows([p.show], ids)[0] }));
    return c.json(answer);
  })
  .get('/promos', async (c) => {
    const [all, ids, hidden] = await Promise.all([activePromos(c.env.DB, c.get('locale')), memberFavoriteIds(c.env.DB, c.get('user')?.id ?? null), c.var.hiddenShows()]);
    const promos = withoutHidden(all, hidden, (p) => p.show_id);
    return c.json<DataAnswer<Promo>>({ data: promos.map((p) => ({ ...p, show: markShows([p.show], ids)[0] })) });
  })
  // "ma": the shows that have been live longest right now.
  .get('/ma', zValidator('query', z.object({ limit: limitParam(36, 12) }), validationHook), async (c) => {
    const hidden = await c.var.hiddenShows();
    return c.json<DataAnswer<ShowSummary>>({ data: await withFavorites(c.env.DB, c.get('user')?.id ?? null, longestOnline(c.env.DB, c.req.valid('query').limit, c.get('locale'), hidden)) });
  })
  // What a reconnecting page refetches: the ids of every show live now.
  .get('/online', async (c) => c.json<DataAnswer<number>>({ data: await onlineShowIds(c.env.DB, await c.var.hiddenShows()) }))
  .get('/:id', zValidator('param', z.object({ id: idParam }), validationHook), async (c) => {
    const { id } = c.req.valid('param');
    // A show hidden from the asker's place does not exist for them (not "offline": absent).
    if (id === null || (await c.var.hiddenShows()).includes(id)) throw new ApiError(404, 'not_found');
    const [show] = await withFavorites(c.env.DB, c.get('user')?.id ?? null, getShowDetail(c.env.DB, id, c.get('locale')).then((s) => (s ? [s] : [])));
    if (!show) throw new ApiError(404, 'not_found');
    return c.json<ShowDetailAnswer>(show);
  });

/** /api/tags */
export const tagsRoutes = new Hono<AppEnv>().get('/', async (c) => c.json<DataAnswer<TagItem>>({ data: await listTags(c.env.DB, c.get('locale'), await c.var.hiddenShows()) }));

/** /api/categories */
export const categoriesRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const all = await cachedCategories(c.env.DB, c.get('locale'), await c.var.hiddenShows());
  const list = all.filter((cat) => cat.id < SEARCH_CATEGORY_MIN_ID).map((cat) => ({ ...cat, cat: cat.name }));
  const search = Object.fromEntries(all.filter((cat) => cat.id >= SEARCH_CATEGORY_MIN_ID).map((cat) => [String(cat.id), { ...cat, cat: cat.name }]));
  return c.json<CategoriesAnswer>({ categories: list, search_categories: search });
});
