import { PAGINATION_LINKS_DESKTOP } from './constants';

/** Query keys a page link keeps (the spec's, plus a location search's), and those a canonical link keeps. */
export const PAGINATION_KEEP = ['search', 'tags', 'sort', 'cat', 'lat', 'lon'] as const;
export const CANONICAL_KEEP = ['page', 'search', 'tags', 'cat'] as const;

export type PageItem = { kind: 'page'; page: number } | { kind: 'gap'; key: string };

/**
 * The page numbers to show: always first and last, a window around the current page,
 * gaps where pages are left out; never more than `max` entries in all.
 */
export function pageItems(current: number, last: number, max: number = PAGINATION_LINKS_DESKTOP): PageItem[] {
  if (last <= 1) return [];
  const page = Math.min(Math.max(1, current), last);
  if (last <= max) return Array.from({ length: last }, (_, i) => ({ kind: 'page', page: i + 1 }));
  const inner = max - 2; // slots between first and last, gaps included
  let start = Math.max(2, page - Math.floor((inner - 1) / 2));
  let end = start + inner - 1;
  if (end > last - 1) {
    end = last - 1;
    start = end - inner + 1;
  }
  const items: PageItem[] = [{ kind: 'page', page: 1 }];
  for (let p = start; p <= end; p++) {
    if (p === start && p > 2) items.push({ kind: 'gap', key: 'gap-start' });
    else if (p === end && p < last - 1) items.push({ kind: 'gap', key: 'gap-end' });
    else items.push({ kind: 'page', page: p });
  }
  items.push({ kind: 'page', page: last });
  return items;
}

/** Link to `page` that keeps the pagination query keys of `search`. Page 1 drops the page key. */
export function pageHref(path: string, query: string | URLSearchParams, page: number): string {
  const search = typeof query === 'string' ? new URLSearchParams(query) : query;
  const q = new URLSearchParams();
  for (const key of PAGINATION_KEEP) {
    const v = search.get(key);
    if (v) q.set(key, v);
  }
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export function canonicalHref(origin: string, path: string, search: URLSearchParams): string {
  const q = new URLSearchParams();
  for (const key of CANONICAL_KEEP) {
    const v = search.get(key);
    if (v && !(key === 'page' && v === '1')) q.set(key, v);
  }
  const s = q.toString();
  return `${origin}${path}${s ? `?${s}` : ''}`;
}

/** Parses a page query value; anything that is not a positive integer becomes 1. */
export function parsePage(value: string | null | undefined): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}
