import { Hono, type Context } from 'hono';
import { SHOWS_PAGE_SIZE, type Locale } from '../../../shared/constants';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import { categoryHref } from '../../../shared/shows';
import { Layout } from '../../../client/shell/layout';
import { pageOf, toPromoLite, toTileShow, type PromoLite, type TileLinks } from '../../../shared/show-lists';
import { CategoriesPage } from '../../../client/features/shows/categories-page';
import { ShowsPage } from '../../../client/features/shows/shows-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { cachedCategories, categoryBarItems, searchShows } from './shows.service';
import { activePromos } from './shows.repo';
import { idParam } from '../../lib/params';
import { withoutHidden } from '../../lib/geo-hidden';

/** Promotions running now, rendered with home so the strip needs no second round trip. */
export async function activePromoStrip(db: D1Database, locale: Locale, hidden: readonly number[] = []): Promise<PromoLite[]> {
  return withoutHidden(await activePromos(db, locale), hidden, (p) => p.show_id).map(toPromoLite);
}

interface ListOptions {
  categoryId: number | null;
  home: boolean;
  /** How tiles link (list-nested show pages). */
  links: TileLinks;
  /** The canonical path, when it differs from the requested one (the ~ alternative set). */
  canonicalPath?: string;
}

async function renderList(c: Context<AppEnv>, opts: ListOptions) {
  const t = c.get('t');
  const locale = c.get('locale');
  const url = new URL(c.req.url);
  const page = parsePage(c.req.query('page'));
  const hidden = await c.var.hiddenShows();
  const [categories, list, promos] = await Promise.all([
    cachedCategories(c.env.DB, locale, hidden),
    searchShows(c.env.DB, { page, limit: SHOWS_PAGE_SIZE, categoryId: opts.categoryId, locale, userId: c.get('user')?.id ?? null, hidden }),
    opts.home && page === 1 ? activePromoStrip(c.env.DB, locale, hidden) : Promise.resolve(null),
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
      <ShowsPage
        title={title}
        subtitle={subtitle}
        list={{
          source: { kind: 'shows', endpoint: 'shows', params: opts.categoryId === null ? {} : { category: String(opts.categoryId) }, pageSize: SHOWS_PAGE_SIZE },
          ...pageOf(list, toTileShow),
          path: url.pathname,
          query: '',
          links: opts.links,
          promos: opts.home ? (promos ?? []) : null,
          refresh: true,
        }}
      />
    </Layout>,
    {
      title: opts.home ? t('home.metaTitle') : `${title} – ${t('common.brand')}`,
      description: category
        ? t('shows.categoryMetaDescription', { category: category.name, brand: t('common.brand'), count: list.total, online: list.online })
        : t('home.metaDescription'),
      canonical: canonicalHref(url.origin, opts.canonicalPath ?? url.pathname, url.searchParams),
    },
  );
}

async function renderCategories(c: Context<AppEnv>) {
  const t = c.get('t');
  const categories = await cachedCategories(c.env.DB, c.get('locale'), await c.var.hiddenShows());
  const url = new URL(c.req.url);
  return renderPage(
    c,
    <Layout categoryBar={{ categories: categoryBarItems(categories) }} breadcrumbs={[{ label: t('categories.title') }]}>
      <CategoriesPage categories={categories} />
    </Layout>,
    { title: `${t('categories.title')} – ${t('common.brand')}`, description: t('categories.metaDescription'), canonical: `${url.origin}/shows/categories` },
  );
}

async function knownCategory(c: Context<AppEnv>, raw: string) {
  const id = idParam.parse(raw);
  const categories = await cachedCategories(c.env.DB, c.get('locale'), await c.var.hiddenShows());
  return categories.find((cat) => cat.id === id) ?? null;
}

export const showsPages = new Hono<AppEnv>()
  .get('/', (c) => renderList(c, { categoryId: null, home: true, links: { base: '', query: '', withPage: false } }))
  .get('/shows', (c) => c.redirect('/shows/all-shows', 301))
  .get('/shows/all-shows', (c) => renderList(c, { categoryId: null, home: false, links: { base: '/shows', query: '', withPage: false } }))
  .get('/shows/categories', (c) => renderCategories(c))
  .get('/shows/:cat/:slug/:description', async (c) => {
    const category = await knownCategory(c, c.req.param('cat'));
    // Unknown categories fall back to all shows.
    if (!category) return c.redirect('/shows/all-shows', 302);
    // A wrong or outdated slug moves to the category's own address, as show pages do.
    const href = categoryHref(category);
    const url = new URL(c.req.url);
    if (url.pathname !== href) return c.redirect(href + url.search, 301);
    return renderList(c, { categoryId: category.id, home: false, links: { base: href, query: '', withPage: false } });
  })
  // The alternative set: the same pages under /~shows.
  .get('/~shows', (c) =>
    renderList(c, { categoryId: null, home: false, links: { base: '/~shows', query: '', withPage: false }, canonicalPath: '/shows/all-shows' }),
  )
  .get('/~shows/categories', (c) => renderCategories(c))
  .get('/~shows/category/:cat', async (c) => {
    const category = await knownCategory(c, c.req.param('cat'));
    if (!category) return c.redirect('/~shows', 302);
    return renderList(c, {
      categoryId: category.id,
      home: false,
      links: { base: '/~shows', query: `cat=${category.id}`, withPage: false },
      canonicalPath: categoryHref(category),
    });
  });
