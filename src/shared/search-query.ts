import type { TFunction } from './translate';

// The query of a search list (search, lat/lon, tags, cat) in one shape for the
// search pages, the show page within a search, and the links between them.

export interface SearchQuery {
  search: string;
  lat: string;
  lon: string;
  tags: string;
  cat: string;
}

const KEYS = ['search', 'lat', 'lon', 'tags', 'cat'] as const;

export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const get = (k: string) => (params.get(k) ?? '').slice(0, 200);
  return { search: get('search').trim(), lat: get('lat').trim(), lon: get('lon').trim(), tags: get('tags').trim(), cat: get('cat').trim() };
}

/** The non-empty keys as a query string (no leading ?), plus `extra`. */
export function searchQueryString(q: SearchQuery, extra: Record<string, string | number | undefined> = {}): string {
  const out = new URLSearchParams();
  for (const k of KEYS) if (q[k]) out.set(k, q[k]);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== '') out.set(k, String(v));
  return out.toString();
}

export function withQuery(path: string, qs: string): string {
  return qs ? `${path}?${qs}` : path;
}

/** Query parameters for GET /api/search/{core}. */
export function searchApiParams(q: SearchQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of KEYS) if (q[k]) out[k] = q[k];
  return out;
}

/** Tag slugs from ?tags= (comma separated), as the search API reads them. */
export function parseTags(value: string | null | undefined): string[] {
  return (value ?? '')
    .slice(0, 500)
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => /^[a-z0-9-]{1,40}$/.test(t))
    .slice(0, 5);
}

export function isLocationSearch(q: SearchQuery): boolean {
  return q.lat !== '' && q.lon !== '';
}

/** The term, or '' for an empty search or '*'. */
export function searchTerm(q: SearchQuery): string {
  return q.search === '*' ? '' : q.search;
}

/** Breadcrumb label: 'Search: term'; the nearby label with lat; plain 'Search' for '' or '*'. */
export function searchCrumbLabel(t: TFunction, q: SearchQuery): string {
  if (q.lat) return t('search.crumbNearby');
  const term = searchTerm(q);
  return term ? t('search.crumbTerm', { term }) : t('search.crumb');
}
