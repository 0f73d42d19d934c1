import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { ftsQuery, parseLatLon, SHOW_FILTERS } from '../../../shared/shows';
import { parseTags } from '../../../shared/search-query';
import type { AppEnv } from '../../env';
import { idParam, limitParam, pageParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { searchGalleries, searchShows, searchVideos } from '../shows/shows.service';
import type { SearchAllAnswer, SearchGalleriesAnswer, SearchShowsAnswer, SearchVideosAnswer } from '../../../shared/api';

const text = z.string().optional().catch(undefined);

/** What every search reads: the term and the page. */
const base = { search: text, page: pageParam };
const allQuery = z.object({ ...base, limit: limitParam(36, 6) });
const showsQuery = z.object({ ...base, limit: limitParam(), tags: text, lat: text, lon: text, cat: idParam, filter: z.enum(SHOW_FILTERS).nullable().catch(null) });
const mediaQuery = z.object({ ...base, limit: limitParam(48), showid: idParam, free: text });

/** /api/search */
export const searchRoutes = new Hono<AppEnv>()
  .get('/all', zValidator('query', allQuery, validationHook), async (c) => {
    const { search, page, limit } = c.req.valid('query');
    const q = { page, limit, fts: ftsQuery(search), locale: c.get('locale') };
    const [shows, videos, galleries] = await Promise.all([searchShows(c.env.DB, q), searchVideos(c.env.DB, q), searchGalleries(c.env.DB, q)]);
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
      fts: ftsQuery(q.search),
      tags: parseTags(q.tags),
      near: parseLatLon(q.lat, q.lon),
      filter: q.filter,
      categoryId: q.cat,
      locale: c.get('locale'),
    });
    return c.json<SearchShowsAnswer>({ ...list, more: list.current_page < list.last_page });
  })
  // free=1: the free videos (price 0) of the "Free videos" page.
  .get('/videos', zValidator('query', mediaQuery, validationHook), async (c) => {
    const q = c.req.valid('query');
    return c.json<SearchVideosAnswer>(await searchVideos(c.env.DB, { page: q.page, limit: q.limit, fts: ftsQuery(q.search), showId: q.showid, free: q.free === '1', locale: c.get('locale') }));
  })
  .get('/galleries', zValidator('query', mediaQuery, validationHook), async (c) => {
    const q = c.req.valid('query');
    return c.json<SearchGalleriesAnswer>(await searchGalleries(c.env.DB, { page: q.page, limit: q.limit, fts: ftsQuery(q.search), showId: q.showid, locale: c.get('locale') }));
  });
