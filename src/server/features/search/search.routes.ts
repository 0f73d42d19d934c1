import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { parseLatLon, SHOW_FILTERS } from '../../../shared/shows';
import { searchText } from '../../../shared/search-names';
import { parseTags } from '../../../shared/search-query';
import type { AppEnv } from '../../env';
import { idParam, limitParam, pageParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { searchShows } from '../shows/shows.service';
import { listGalleries, listVideos, moreLikeGallery, moreLikeVideo } from '../store/store.service';
import { ApiError } from '../../lib/errors';
import { STORE_MLT_LIMIT, STORE_SORTS, type MltAnswer } from '../../../shared/store';
import type { GallerySummary, VideoSummary } from '../../../shared/shows';
import type { SearchAllAnswer, SearchGalleriesAnswer, SearchShowsAnswer, SearchVideosAnswer } from '../../../shared/api';

const text = z.string().optional().catch(undefined);

/** What every search reads: the term and the page. */
const base = { search: text, page: pageParam };
const allQuery = z.object({ ...base, limit: limitParam(36, 6) });
const showsQuery = z.object({ ...base, limit: limitParam(), tags: text, lat: text, lon: text, cat: idParam, filter: z.enum(SHOW_FILTERS).nullable().catch(null) });
// Store lists never refuse junk: each bad value falls back to its default.
const mediaQuery = z.object({ ...base, limit: limitParam(48), showid: idParam, free: text, tags: text, sort: z.enum(STORE_SORTS).catch('newest'), cat: idParam });
const mltQuery = z.object({ limit: limitParam(STORE_MLT_LIMIT), showid: idParam });
const ccidPath = z.object({ ccid: z.string().max(40) });
const idPath = z.object({ id: idParam });

/** /api/search */
export const searchRoutes = new Hono<AppEnv>()
  .get('/all', zValidator('query', allQuery, validationHook), async (c) => {
    const { search, page, limit } = c.req.valid('query');
    const locale = c.get('locale');
    const q = { page, limit, locale, userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() };
    const [shows, videos, galleries] = await Promise.all([
      searchShows(c.env.DB, { ...q, text: searchText(search) }),
      listVideos(c.env.DB, { ...q, search }),
      listGalleries(c.env.DB, { ...q, search }),
    ]);
    return c.json<SearchAllAnswer>({
      shows: { data: shows.data, total: shows.total },
      videos: { data: videos.data, total: videos.total },
      galleries: { data: galleries.data, total: galleries.total },
    });
  })
  .get('/shows', zValidator('query', showsQuery, validationHook), async (c) => {
    const q = c.req.valid('query');
    const list = await searchShows(c.env.DB, {
      page: q.page,
      limit: q.limit,
      text: searchText(q.search),
      tags: parseTags(q.tags),
      near: parseLatLon(q.lat, q.lon),
      filter: q.filter,
      categoryId: q.cat,
      locale: c.get('locale'),
      userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows(),
    });
    return c.json<SearchShowsAnswer>({ ...list, more: list.current_page < list.last_page });
  })
  // free=1: the free videos (price 0) of the "Free videos" page.
  .get('/videos', zValidator('query', mediaQuery, validationHook), async (c) => {
    const q = c.req.valid('query');
    const list = await listVideos(c.env.DB, { ...storeArgs(q), free: q.free === '1', locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() });
    return c.json<SearchVideosAnswer>(list);
  })
  .get('/videos/:ccid/mlt', zValidator('param', ccidPath, validationHook), zValidator('query', mltQuery, validationHook), async (c) => {
    const q = c.req.valid('query');
    const data = await moreLikeVideo(c.env.DB, { ccid: c.req.valid('param').ccid, showId: q.showid, limit: q.limit, locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() });
    if (!data) throw new ApiError(404, 'not_found');
    return c.json<MltAnswer<VideoSummary>>({ data });
  })
  .get('/galleries', zValidator('query', mediaQuery, validationHook), async (c) => {
    const q = c.req.valid('query');
    return c.json<SearchGalleriesAnswer>(await listGalleries(c.env.DB, { ...storeArgs(q), locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() }));
  })
  .get('/galleries/:id/mlt', zValidator('param', idPath, validationHook), zValidator('query', mltQuery, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const data = id === null ? null : await moreLikeGallery(c.env.DB, { id, showId: q.showid, limit: q.limit, locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() });
    if (!data) throw new ApiError(404, 'not_found');
    return c.json<MltAnswer<GallerySummary>>({ data });
  });

function storeArgs(q: z.infer<typeof mediaQuery>) {
  return { page: q.page, limit: q.limit, search: q.search, showId: q.showid, tags: parseTags(q.tags), sort: q.sort, cat: q.cat };
}
