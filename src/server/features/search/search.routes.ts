import { Hono } from 'hono';
import { parsePage } from '../../../shared/pagination';
import { ftsQuery, parseLatLon } from '../../../shared/shows';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { parseId, parseLimit } from '../../lib/params';
import { queryShows, SHOW_FILTERS, type ShowFilter } from '../shows/shows.repo';
import { queryGalleries, queryVideos } from './media.repo';

const FILTERS = new Set<string>(SHOW_FILTERS);

function tagList(value: string | undefined): string[] {
  return (value ?? '')
    .slice(0, 500)
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => /^[a-z0-9-]{1,40}$/.test(t))
    .slice(0, 5);
}

export const searchRoutes = new Hono<AppEnv>()
  .get('/all', async (c) => {
    const locale = c.get('locale');
    const fts = ftsQuery(c.req.query('search'));
    const limit = parseLimit(c.req.query('limit'), 36, 6);
    const page = parsePage(c.req.query('page'));
    const [shows, videos, galleries] = await Promise.all([
      queryShows(c.env.DB, { page, limit, fts, locale }),
      queryVideos(c.env.DB, { page, limit, fts, locale }),
      queryGalleries(c.env.DB, { page, limit, fts, locale }),
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
      const list = await queryShows(c.env.DB, {
        page,
        limit: parseLimit(c.req.query('limit')),
        fts,
        tags: tagList(c.req.query('tags')),
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
      return c.json(await queryVideos(c.env.DB, { page, limit: parseLimit(c.req.query('limit'), 48), fts, showId, free, locale }));
    }
    if (core === 'galleries') return c.json(await queryGalleries(c.env.DB, { page, limit: parseLimit(c.req.query('limit'), 48), fts, showId, locale }));
    throw new ApiError(404, 'not_found');
  });
