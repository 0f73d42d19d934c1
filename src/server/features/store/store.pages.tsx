import { Hono, type Context } from 'hono';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import { parseTags } from '../../../shared/search-query';
import { pageOf, toTileGallery, toTileVideo, type ListProps } from '../../../shared/show-lists';
import { showHref } from '../../../shared/shows';
import { STORE_LIST_LIMIT, STORE_SORTS, type StoreSort } from '../../../shared/store';
import { showGalleriesHref, showVideosHref } from '../../../shared/store-links';
import type { Crumb } from '../../../client/ui/breadcrumbs';
import { Layout } from '../../../client/shell/layout';
import { StoreListPage, type StoreTab } from '../../../client/features/store/store-list-page';
import type { AppEnv } from '../../env';
import { idParam } from '../../lib/params';
import { renderPage } from '../../render/render-page';
import { findStoreShow, type StoreShowRef } from './pages.repo';
import { listGalleries, listVideos } from './store.service';

// The store's lists (issue 13): /videos and /galleries, a show's (/videos/show/{id}/{slug},
// /galleries/show/..., and nested in the show's address /chat/{id}/{slug}/videos|galleries).

type Kind = 'videos' | 'galleries';
/** Where a list is: the whole store, or one show's (under /videos/show or nested in /chat). */
type ListContext = { kind: 'store' } | { kind: 'show'; show: StoreShowRef; nested: boolean };

const QUERY_KEYS = ['search', 'tags', 'sort', 'cat'] as const;

function listQuery(url: URL): string {
  const q = new URLSearchParams();
  for (const key of QUERY_KEYS) {
    const v = url.searchParams.get(key);
    if (v) q.set(key, v);
  }
  return q.toString();
}

function listPath(kind: Kind, ctx: ListContext): string {
  if (ctx.kind === 'store') return `/${kind}`;
  if (ctx.nested) return kind === 'videos' ? showVideosHref(ctx.show) : showGalleriesHref(ctx.show);
  return `/${kind}/show/${ctx.show.id}/${ctx.show.slugName}`;
}

export async function renderStoreList(c: Context<AppEnv>, kind: Kind, ctx: ListContext) {
  const t = c.get('t');
  const locale = c.get('locale');
  const url = new URL(c.req.url);
  const page = parsePage(url.searchParams.get('page'));
  const sortRaw = url.searchParams.get('sort') ?? '';
  const sort: StoreSort | undefined = (STORE_SORTS as readonly string[]).includes(sortRaw) ? (sortRaw as StoreSort) : undefined;
  const search = url.searchParams.get('search')?.slice(0, 100) || null;
  const tags = parseTags(url.searchParams.get('tags'));
  const cat = idParam.parse(url.searchParams.get('cat') ?? undefined);
  const showId = ctx.kind === 'show' ? ctx.show.id : null;
  const q = { page, limit: STORE_LIST_LIMIT, search, tags, sort, cat, showId, locale, userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() };
  const items = kind === 'videos' ? pageOf(await listVideos(c.env.DB, q), toTileVideo) : pageOf(await listGalleries(c.env.DB, q), toTileGallery);
  const params: Record<string, string> = {};
  if (search) params.search = search;
  if (tags.length) params.tags = tags.join(',');
  if (sort) params.sort = sort;
  if (cat !== null) params.cat = String(cat);
  if (showId !== null) params.showid = String(showId);
  const path = listPath(kind, ctx);
  const list: ListProps = {
    source: { kind, endpoint: `search/${kind}`, params, pageSize: STORE_LIST_LIMIT },
    ...items,
    path,
    query: listQuery(url),
    store: ctx.kind === 'show' && ctx.nested ? 'show' : 'store',
  };
  const tabs: StoreTab[] = (['videos', 'galleries'] as const).map((k) => ({ key: k, label: t(`store.nav.${k}`), href: listPath(k, ctx), active: k === kind }));
  const trail: Crumb[] =
    ctx.kind === 'show'
      ? [{ label: ctx.show.name, href: showHref(ctx.show) }, { label: t(`store.nav.${kind}`) }]
      : [{ label: t(`store.nav.${kind}`) }];
  const title = ctx.kind === 'show' ? t(`store.${kind}.showTitle`, { name: ctx.show.name }) : t(`store.${kind}.title`);
  return renderPage(
    c,
    <Layout breadcrumbs={trail}>
      <StoreListPage title={title} lead={t(`store.${kind}.lead`)} count={t(`store.${kind}.count`, { count: items.total })} tabs={tabs} list={list} />
    </Layout>,
    { title: `${title} – ${t('common.brand')}`, description: t(`store.${kind}.lead`), canonical: canonicalHref(url.origin, path, url.searchParams), texts: ['store'] },
  );
}

/** The show of a show's list; a wrong slug goes to the right one (301), an unknown show is a 404. */
async function withShow(c: Context<AppEnv>, kind: Kind, nested: boolean) {
  const id = idParam.parse(c.req.param('showid'));
  const show = id === null || (await c.var.hiddenShows()).includes(id) ? null : await findStoreShow(c.env.DB, id);
  if (!show) return c.notFound();
  if (c.req.param('slug') !== show.slugName) {
    const url = new URL(c.req.url);
    return c.redirect(`${listPath(kind, { kind: 'show', show, nested })}${url.search}`, 301);
  }
  return renderStoreList(c, kind, { kind: 'show', show, nested });
}

export const storeListPages = new Hono<AppEnv>()
  .get('/videos', (c) => renderStoreList(c, 'videos', { kind: 'store' }))
  .get('/galleries', (c) => renderStoreList(c, 'galleries', { kind: 'store' }))
  .get('/videos/show/:showid/:slug?', (c) => withShow(c, 'videos', false))
  .get('/galleries/show/:showid/:slug?', (c) => withShow(c, 'galleries', false))
  .get('/chat/:showid/:slug/videos', (c) => withShow(c, 'videos', true))
  .get('/chat/:showid/:slug/galleries', (c) => withShow(c, 'galleries', true));
