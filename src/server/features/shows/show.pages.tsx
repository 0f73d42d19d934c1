import { Hono, type Context } from 'hono';
import { SHOWS_PAGE_SIZE } from '../../../shared/constants';
import { parsePage } from '../../../shared/pagination';
import { categoryHref, parseLatLon, showHref, type ShowDetail } from '../../../shared/shows';
import { searchText } from '../../../shared/search-names';
import { metaDescription } from '../../../shared/meta';
import type { Crumb } from '../../../client/ui/breadcrumbs';
import { Layout } from '../../../client/shell/layout';
import { ShowPage, type ShowNavLink } from '../../../client/features/shows/show-page';
import {
  parseTags,
  readSearchQuery,
  searchCrumbLabel,
  searchQueryString,
  withQuery,
  type SearchQuery,
} from '../../../shared/search-query';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { cachedCategories, withFavorites } from './shows.service';
import { getShowDetail, neighbours, queryShows, type ShowRef } from './shows.repo';
import { findShowSlug } from './show-status.repo';
import { idParam } from '../../lib/params';

/**
 * Where a show page was opened from: its breadcrumbs, and the list whose order prev/next follow.
 * - direct: /chat/{id}/{slug} (all shows order)
 * - all: /shows/chat/... and /~shows/chat/... (all shows)
 * - category: /shows/{cat}/{slug}/{description}/chat/... and /~shows/chat/...?cat= (that category)
 * - search: /search/shows/chat/... and /~search/shows/chat/... (the search, by its query)
 */
type ShowContext =
  | { kind: 'direct' }
  | { kind: 'all'; base: string; listHref: string }
  | { kind: 'category'; base: string; listHref: string; categoryId: number; query: string }
  | { kind: 'search'; base: string; listPath: string; search: SearchQuery; page: number };

function chatHref(base: string, ref: Pick<ShowRef, 'id' | 'slugName'>, query = ''): string {
  return withQuery(`${base}/chat/${ref.id}/${ref.slugName}`, query);
}

/** Prev/next in a search's order: the pages around the one the show was listed on. */
async function searchNeighbours(c: Context<AppEnv>, id: number, q: SearchQuery, page: number) {
  const from = Math.max(1, page - 1);
  const cat = idParam.parse(q.cat);
  const list = await queryShows(c.env.DB, {
    page: page + 1,
    pageFrom: from,
    limit: SHOWS_PAGE_SIZE,
    text: searchText(q.search),
    tags: parseTags(q.tags),
    near: parseLatLon(q.lat, q.lon),
    categoryId: cat,
    locale: c.get('locale'),
    hidden: await c.var.hiddenShows(),
  });
  const at = list.data.findIndex((s) => s.id === id);
  const pick = (i: number) => (at >= 0 && i >= 0 && i < list.data.length ? { show: list.data[i], page: from + Math.floor(i / SHOWS_PAGE_SIZE) } : null);
  return { prev: pick(at - 1), next: pick(at + 1) };
}

async function renderShow(c: Context<AppEnv>, ctx: ShowContext) {
  const id = idParam.parse(c.req.param('id'));
  // A show hidden from the visitor's place (geo-blocking) does not exist for them: 404, not "offline".
  const hidden = await c.var.hiddenShows();
  if (id === null || hidden.includes(id)) return c.notFound();
  const locale = c.get('locale');
  const t = c.get('t');
  const url = new URL(c.req.url);
  const [found] = await withFavorites<ShowDetail>(c.env.DB, c.get('user')?.id ?? null, getShowDetail(c.env.DB, id, locale).then((s) => (s ? [s] : [])));
  const show: ShowDetail | null = found ?? null;
  if (!show) return c.notFound();

  // A wrong or missing slug goes to the canonical one, in the same list context.
  const base = ctx.kind === 'direct' ? '' : ctx.base;
  if (c.req.param('slug') !== show.slugName) return c.redirect(withQuery(`${base}/chat/${show.id}/${show.slugName}`, url.searchParams.toString()), 301);

  let prev: ShowNavLink | null = null;
  let next: ShowNavLink | null = null;
  const trail: Crumb[] = [];
  if (ctx.kind === 'search') {
    const n = await searchNeighbours(c, id, ctx.search, ctx.page);
    const link = (x: (typeof n)['prev']) =>
      x ? { href: chatHref(ctx.base, x.show, searchQueryString(ctx.search, { page: x.page > 1 ? x.page : undefined })), name: x.show.name } : null;
    prev = link(n.prev);
    next = link(n.next);
    trail.push({ label: searchCrumbLabel(t, ctx.search), href: withQuery(ctx.listPath, searchQueryString(ctx.search, { page: ctx.page > 1 ? ctx.page : undefined })) });
  } else {
    const categoryId = ctx.kind === 'category' ? ctx.categoryId : null;
    const query = ctx.kind === 'category' ? ctx.query : '';
    const [n, categories] = await Promise.all([neighbours(c.env.DB, id, categoryId, hidden), ctx.kind === 'category' ? cachedCategories(c.env.DB, locale, hidden) : null]);
    prev = n.prev ? { href: chatHref(base, n.prev, query), name: n.prev.name } : null;
    next = n.next ? { href: chatHref(base, n.next, query), name: n.next.name } : null;
    if (ctx.kind === 'all') trail.push({ label: t('nav.allShows'), href: ctx.listHref });
    if (ctx.kind === 'category') {
      const category = categories?.find((cat) => cat.id === ctx.categoryId);
      if (category) trail.push({ label: category.name, href: ctx.listHref });
    }
  }
  trail.push({ label: show.name });

  return renderPage(
    c,
    <Layout breadcrumbs={trail}>
      <ShowPage show={show} prev={prev} next={next} />
    </Layout>,
    {
      title: t('showPage.metaTitle', { name: show.name, brand: t('common.brand') }),
      // More than the slogan: who, where and the show's own text, cut to what a result shows.
      description: metaDescription(
        t('showPage.metaDescription', {
          name: show.name,
          age: show.age,
          city: show.city,
          brand: t('common.brand'),
          text: [show.texts.slogan, show.texts.description].filter(Boolean).join(' – '),
        }),
      ),
      canonical: `${url.origin}${showHref(show)}`,
      texts: ['chat', 'video', 'messages'],
    },
  );
}

/** The category of a list-nested route, or null (unknown: the page falls back to all shows). */
async function categoryContext(c: Context<AppEnv>, raw: string | undefined) {
  const id = idParam.parse(raw);
  if (id === null) return null;
  const categories = await cachedCategories(c.env.DB, c.get('locale'), await c.var.hiddenShows());
  return categories.find((cat) => cat.id === id) ?? null;
}

function searchContext(c: Context<AppEnv>, prefix: '/search' | '/~search'): ShowContext {
  const params = new URL(c.req.url).searchParams;
  return { kind: 'search', base: `${prefix}/shows`, listPath: `${prefix}/shows`, search: readSearchQuery(params), page: parsePage(params.get('page')) };
}

export const showPages = new Hono<AppEnv>()
  .get('/chat/:id/:slug?', (c) => renderShow(c, { kind: 'direct' }))
  .get('/-/:id', async (c) => {
    const id = idParam.parse(c.req.param('id'));
    const row = id === null || (await c.var.hiddenShows()).includes(id) ? null : await findShowSlug(c.env.DB, id);
    if (!row) return c.notFound();
    return c.redirect(showHref(row), 301);
  })
  .get('/shows/chat/:id/:slug?', (c) => renderShow(c, { kind: 'all', base: '/shows', listHref: '/shows/all-shows' }))
  .get('/shows/:cat/:catslug/:description/chat/:id/:slug?', async (c) => {
    const category = await categoryContext(c, c.req.param('cat'));
    if (!category) return renderShow(c, { kind: 'all', base: '/shows', listHref: '/shows/all-shows' });
    const listHref = categoryHref(category);
    return renderShow(c, { kind: 'category', base: listHref, listHref, categoryId: category.id, query: '' });
  })
  .get('/~shows/chat/:id?/:slug?', async (c) => {
    if (!c.req.param('id')) return c.redirect('/~shows', 302);
    const category = await categoryContext(c, c.req.query('cat'));
    if (!category) return renderShow(c, { kind: 'all', base: '/~shows', listHref: '/~shows' });
    return renderShow(c, { kind: 'category', base: '/~shows', listHref: `/~shows/category/${category.id}`, categoryId: category.id, query: `cat=${category.id}` });
  })
  .get('/search/shows/chat/:id/:slug?', (c) => renderShow(c, searchContext(c, '/search')))
  .get('/~search/shows/chat/:id/:slug?', (c) => renderShow(c, searchContext(c, '/~search')));
