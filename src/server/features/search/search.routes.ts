import { Hono } from 'hono';
import { parsePage } from '../../../shared/pagination';
import { ftsQuery, parseLatLon, SHOW_FILTERS, type ShowFilter } from '../../../shared/shows';
import { parseTags } from '../../../shared/search-query';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { parseId, parseLimit } from '../../lib/params';
import { searchGalleries, searchShows, searchVideos } from '../shows/shows.service';

const FILTERS = new Set<string>(SHOW_FILTERS);

/** /api/search */
export const searchRoutes = new Hono<AppEnv>()
  .get('/all', async (c) => {
    const locale = c.get('locale');
    const fts = ftsQuery(c.req.query('search'));
    const limit = parseLimit(c.req.query('limit'), 36, 6);
    const page = parsePage(c.req.query('page'));
    const [shows, videos, galleries] = await Promise.all([
      searchShows(c.env.DB, { page, limit, fts, locale }),
      searchVideos(c.env.DB, { page, limit, fts, locale }),
      searchGalleries(c.env.DB, { page, limit, fts, locale }),
    ]);
    return c.json({
      shows: { data: shows.data, total: shows.total },
      videos: { data: videos.data, total: videos.total },
      galleries: { data: galleries.data, total: galleries.total },
    });
  })
  .get('/:core', async (c) => {
    const core = c.req.param('core');
    const locale = c.get('locale');
    const page = parsePage(c.req.query('page'));
    const fts = ftsQuery(c.req.query('search'));
    if (core === 'shows') {
      const filter = c.req.query('filter');
      const category = parseId(c.req.query('cat'));
      const list = await searchShows(c.env.DB, {
        page,
        limit: parseLimit(c.req.query('limit')),
        fts,
        tags: parseTags(c.req.query('tags')),
        near: parseLatLon(c.req.query('lat'), c.req.query('lon')),
        filter: filter && FILTERS.has(filter) ? (filter as ShowFilter) : null,
        categoryId: category,
        locale,
      });
      return c.json({ ...list, more: list.current_page < list.last_page });
    }
    const showId = parseId(c.req.query('showid'));
    if (core === 'videos') {
      // free=1: the free videos (price 0) of the "Free videos" page.
      const free = c.req.query('free') === '1';
      return c.json(await searchVideos(c.env.DB, { page, limit: parseLimit(c.req.query('limit'), 48), fts, showId, free, locale }));
    }
    if (core === 'galleries') return c.json(await searchGalleries(c.env.DB, { page, limit: parseLimit(c.req.query('limit'), 48), fts, showId, locale }));
    throw new ApiError(404, 'not_found');
  });
