import { Hono, type Context } from 'hono';
import { CATEGORY_BAR_EXTRAS, SHOWS_PAGE_SIZE } from '../../../shared/constants';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import { parseLatLon } from '../../../shared/shows';
import { searchText } from '../../../shared/search-names';
import type { Crumb } from '../../../client/ui/breadcrumbs';
import { Layout } from '../../../client/shell/layout';
import { pageOf, toTileGallery, toTileShow, toTileVideo, type ListFilter, type ListKind, type ListProps, type TileLinks } from '../../../shared/show-lists';
import { SearchPage, type SearchSection, type SearchTab } from '../../../client/features/search/search-page';
import {
  isLocationSearch,
  parseTags,
  readSearchQuery,
  searchApiParams,
  searchCrumbLabel,
  searchQueryString,
  searchTerm,
  withQuery,
  type SearchQuery,
} from '../../../shared/search-query';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { cachedCategories, searchShows, tagNamesFor } from '../shows/shows.service';
import { listGalleries, listVideos } from '../store/store.service';
import { idParam } from '../../lib/params';

type Prefix = '/search' | '/~search';

/** Search page sizes: shows 36, videos and galleries 48. */
const PAGE_SIZE: Record<ListKind, number> = { shows: SHOWS_PAGE_SIZE, videos: 48, galleries: 48 };
/** The overview shows the first few of each kind. */
const OVERVIEW_SIZE: Record<ListKind, number> = { shows: 12, videos: 8, galleries: 8 };

function catId(q: SearchQuery): number | null {
  return idParam.parse(q.cat);
}

async function fetchKind(c: Context<AppEnv>, kind: ListKind, q: SearchQuery, page: number, limit: number) {
  const locale = c.get('locale');
  const userId = c.get('user')?.id ?? null;
  const hidden = await c.var.hiddenShows();
  if (kind === 'videos') {
    const r = await listVideos(c.env.DB, { page, limit, search: q.search, locale, userId, hidden });
    return pageOf(r, toTileVideo);
  }
  if (kind === 'galleries') {
    const r = await listGalleries(c.env.DB, { page, limit, search: q.search, locale, userId, hidden });
    return pageOf(r, toTileGallery);
  }
  const r = await searchShows(c.env.DB, {
    page,
    limit,
    text: searchText(q.search),
    tags: parseTags(q.tags),
    near: parseLatLon(q.lat, q.lon),
    categoryId: catId(q),
    locale,
    userId,
    hidden,
  });
  return pageOf(r, toTileShow);
}

async function renderSearch(c: Context<AppEnv>, prefix: Prefix, requested: SearchTab) {
  const t = c.get('t');
  const locale = c.get('locale');
  const url = new URL(c.req.url);
  const q = readSearchQuery(url.searchParams);
  const page = parsePage(url.searchParams.get('page'));
  const term = searchTerm(q);
  const near = isLocationSearch(q) && parseLatLon(q.lat, q.lon) !== null;
  const tags = parseTags(q.tags);
  // Location and tag searches are about shows only: the overview shows that list directly.
  const showsOnly = near || tags.length > 0;
  const tab: SearchTab = requested === 'all' && showsOnly ? 'shows' : requested;
  const path = url.pathname;
  const links: TileLinks = { base: `${prefix}/shows`, query: searchQueryString(q), withPage: true };
  const [names, categories] = await Promise.all([tagNamesFor(c.env.DB, tags, locale), cachedCategories(c.env.DB, locale, await c.var.hiddenShows())]);

  let sections: SearchSection[] | undefined;
  let list: ListProps | undefined;
  let count = 0;
  if (tab === 'all') {
    const kinds: ListKind[] = ['shows', 'videos', 'galleries'];
    const results = await Promise.all(kinds.map((k) => fetchKind(c, k, q, 1, OVERVIEW_SIZE[k])));
    sections = kinds.map((kind, i) => ({
      kind,
      total: results[i].total,
      href: withQuery(`${prefix}/${kind}`, searchQueryString(q)),
      list: {
        source: { kind, endpoint: `search/${kind}`, params: searchApiParams(q), pageSize: OVERVIEW_SIZE[kind] },
        items: results[i].items,
        page: 1,
        lastPage: 1,
        total: results[i].total,
        path: `${prefix}/${kind}`,
        query: searchQueryString(q),
        links,
        paged: false,
        store: 'search',
      },
    }));
    count = results.reduce((sum, r) => sum + r.total, 0);
  } else {
    const kind = tab;
    const r = await fetchKind(c, kind, q, page, PAGE_SIZE[kind]);
    count = r.total;
    const filters: ListFilter[] | null =
      kind === 'shows'
        ? [
            { value: '', label: t('search.filterAll') },
            ...CATEGORY_BAR_EXTRAS.flatMap((id) => {
              const cat = categories.find((x) => x.id === id);
              return cat ? [{ value: String(cat.id), label: cat.name }] : [];
            }),
          ]
        : null;
    list = {
      source: { kind, endpoint: `search/${kind}`, params: searchApiParams(q), pageSize: PAGE_SIZE[kind] },
      items: r.items,
      page: r.page,
      lastPage: r.lastPage,
      total: r.total,
      path,
      query: searchQueryString(q),
      links,
      filters,
      refresh: kind === 'shows',
      store: 'search',
    };
  }

  const label = searchCrumbLabel(t, q);
  const title = near
    ? t('search.titleNearby')
    : names.length > 0
      ? t('search.titleTags', { tags: names.join(', ') })
      : term
        ? t('search.titleTerm', { term })
        : t('search.title');
  const subtitle = tab === 'all' ? t('search.found', { count }) : t(`search.count.${tab}`, { count });
  const trail: Crumb[] = requested === 'all' || showsOnly ? [{ label }] : [{ label, href: withQuery(prefix, searchQueryString(q)) }, { label: t(`search.tab.${tab}`) }];

  return renderPage(
    c,
    <Layout breadcrumbs={trail}>
      <SearchPage
        prefix={prefix}
        tab={tab}
        title={title}
        subtitle={subtitle}
        term={term}
        tabQuery={searchQueryString({ ...q, lat: '', lon: '', tags: '', cat: '' })}
        showsOnly={showsOnly}
        sections={sections}
        list={list}
      />
    </Layout>,
    {
      title: `${title} – ${t('common.brand')}`,
      description: t('search.metaDescription'),
      canonical: canonicalHref(url.origin, path.replace(/^\/~search/, '/search'), url.searchParams),
      texts: ['store'],
      robots: term || near ? 'noindex, follow' : undefined,
    },
  );
}

function searchRoutesFor(prefix: Prefix) {
  return new Hono<AppEnv>()
    .get(prefix, (c) => renderSearch(c, prefix, 'all'))
    .get(`${prefix}/shows`, (c) => renderSearch(c, prefix, 'shows'))
    .get(`${prefix}/videos`, (c) => renderSearch(c, prefix, 'videos'))
    .get(`${prefix}/galleries`, (c) => renderSearch(c, prefix, 'galleries'));
}

/** /search with its tabs, and the alternative set under /~search. */
export const searchPages = new Hono<AppEnv>().route('/', searchRoutesFor('/search')).route('/', searchRoutesFor('/~search'));
