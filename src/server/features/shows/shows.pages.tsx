import { Hono, type Context } from 'hono';
import { SHOWS_PAGE_SIZE } from '../../../shared/constants';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import { Layout } from '../../../client/components/shell/layout';
import { CategoriesPage } from '../../../client/pages/categories-page';
import { ShowsPage } from '../../../client/pages/shows-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { cachedCategories, categoryBarItems } from './category-cache';
import { queryShows } from './shows.repo';

async function renderList(c: Context<AppEnv>, opts: { categoryId: number | null; home: boolean }) {
  const t = c.get('t');
  const locale = c.get('locale');
  const url = new URL(c.req.url);
  const page = parsePage(c.req.query('page'));
  const [categories, list] = await Promise.all([
    cachedCategories(c.env.DB, locale),
    queryShows(c.env.DB, { page, limit: SHOWS_PAGE_SIZE, categoryId: opts.categoryId, locale }),
  ]);
  const category = opts.categoryId === null ? null : categories.find((cat) => cat.id === opts.categoryId);
  const title = opts.home ? t('home.title') : category ? category.name : t('nav.allShows');
  const subtitle = t(opts.home ? 'home.subtitle' : 'shows.count', { count: list.total, online: list.online });
  return renderPage(
    c,
    <Layout
      categoryBar={{ categories: categoryBarItems(categories), activeId: opts.categoryId ?? (opts.home ? null : 0) }}
      breadcrumbs={opts.home ? null : [{ label: title }]}
    >
      <ShowsPage title={title} subtitle={subtitle} list={list} path={url.pathname} query={url.search} />
    </Layout>,
    {
      title: opts.home ? t('home.metaTitle') : `${title} – ${t('common.brand')}`,
      description: t('home.metaDescription'),
      canonical: canonicalHref(url.origin, url.pathname, url.searchParams),
    },
  );
}

export const showsPages = new Hono<AppEnv>()
  .get('/', (c) => renderList(c, { categoryId: null, home: true }))
  .get('/shows', (c) => c.redirect('/shows/all-shows', 301))
  .get('/shows/all-shows', (c) => renderList(c, { categoryId: null, home: false }))
  .get('/shows/categories', async (c) => {
    const t = c.get('t');
    const categories = await cachedCategories(c.env.DB, c.get('locale'));
    const url = new URL(c.req.url);
    return renderPage(
      c,
      <Layout categoryBar={{ categories: categoryBarItems(categories) }} breadcrumbs={[{ label: t('categories.title') }]}>
        <CategoriesPage categories={categories} />
      </Layout>,
      { title: `${t('categories.title')} – ${t('common.brand')}`, canonical: `${url.origin}${url.pathname}` },
    );
  })
  .get('/shows/:cat/:slug/:description', async (c) => {
    const id = /^\d{1,9}$/.test(c.req.param('cat')) ? Number(c.req.param('cat')) : NaN;
    const categories = await cachedCategories(c.env.DB, c.get('locale'));
    // Unknown categories fall back to all shows (spec part 2 section 3).
    if (!categories.some((cat) => cat.id === id)) return c.redirect('/shows/all-shows', 302);
    return renderList(c, { categoryId: id, home: false });
  });
