import { Hono, type Context } from 'hono';
import { SHOWS_PAGE_SIZE } from '../../../shared/constants';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import { Layout } from '../../../client/shell/layout';
import { pageOf, toTileShow, toTileVideo, type ListProps } from '../../../shared/show-lists';
import { FreeListPage } from '../../../client/features/shows/free-list-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { listVideos } from '../store/store.service';
import { searchShows } from './shows.service';

const VIDEO_PAGE_SIZE = 48;

function render(c: Context<AppEnv>, kind: 'shows' | 'videos', list: ListProps) {
  const t = c.get('t');
  const key = kind === 'shows' ? 'freeShows' : 'freeVideos';
  const url = new URL(c.req.url);
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t(`${key}.title`) }]}>
      <FreeListPage kind={kind} list={list} />
    </Layout>,
    { title: `${t(`${key}.title`)} – ${t('common.brand')}`, description: t(`${key}.lead`), canonical: canonicalHref(url.origin, url.pathname, url.searchParams), texts: ['store'] },
  );
}

/** The drawer's "Free shows" (free chat open now) and "Free videos" (price 0) as real lists. */
export const freePages = new Hono<AppEnv>()
  .get('/freeshow', async (c) => {
    const page = parsePage(c.req.query('page'));
    const r = await searchShows(c.env.DB, { page, limit: SHOWS_PAGE_SIZE, filter: 'free_online', locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() });
    return render(c, 'shows', {
      source: { kind: 'shows', endpoint: 'search/shows', params: { filter: 'free_online' }, pageSize: SHOWS_PAGE_SIZE },
      ...pageOf(r, toTileShow),
      path: '/freeshow',
      query: '',
      links: { base: '', query: '', withPage: false },
      refresh: true,
    });
  })
  .get('/freevideo', async (c) => {
    const page = parsePage(c.req.query('page'));
    const r = await listVideos(c.env.DB, { page, limit: VIDEO_PAGE_SIZE, free: true, locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() });
    return render(c, 'videos', {
      source: { kind: 'videos', endpoint: 'search/videos', params: { free: '1' }, pageSize: VIDEO_PAGE_SIZE },
      ...pageOf(r, toTileVideo),
      path: '/freevideo',
      query: '',
    });
  });
