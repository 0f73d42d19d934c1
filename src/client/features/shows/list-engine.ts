import { flushSync } from 'react-dom';
import { canonicalHref, parsePage } from '../../../shared/pagination';
import type { Promo } from '../../../shared/shows';
import type { TFunction } from '../../../shared/translate';
import { api } from '../../lib/api';
import type { RootState } from '../../state/store';
import { pageHref, PAGINATION_KEEP } from '../../../shared/pagination';
import { rebuildOnline } from '../../state/live';
import { toPromoLite, toTileItems, type ListItem, type ListSource, type PromoLite } from '../../../shared/show-lists';

// What a list does after the first render, loaded on first use (the end of the list comes in
// reach, a page link or filter is clicked, a refresh is due), so it is not part of the page's
// first-load JavaScript.

export interface Chunk {
  page: number;
  items: ListItem[];
}

export type ListStatus = 'idle' | 'appending' | 'replacing' | 'refreshing' | 'append-error' | 'replace-error';

export interface ListSnapshot {
  chunks: Chunk[];
  params: Record<string, string>;
  query: string;
  promos: PromoLite[];
}

export interface ListUpdate {
  chunks?: Chunk[] | ((prev: Chunk[]) => Chunk[]);
  lastPage?: number;
  total?: number;
  params?: Record<string, string>;
  query?: string;
  promos?: PromoLite[] | ((prev: PromoLite[]) => PromoLite[]);
  status?: ListStatus;
  announce?: string;
}

export interface EngineHost {
  source: ListSource;
  path: string;
  hasPromos: boolean;
  hasFilters: boolean;
  store: RootState;
  t: TFunction;
  read(): ListSnapshot;
  update(u: ListUpdate): void;
  root(): HTMLElement | null;
  /** Remembers how to repeat the failed load. */
  setRetry(fn: (() => void) | null): void;
}

interface ListPage {
  data: unknown[];
  current_page: number;
  last_page: number;
  total: number;
  promos?: Promo[];
}

const isAbort = (e: unknown, signal: AbortSignal) => signal.aborted || (e as Error)?.name === 'AbortError';

function queryWith(query: string, key: string, value: string): string {
  const q = new URLSearchParams(query);
  if (value) q.set(key, value);
  else q.delete(key);
  return q.toString();
}

export function createListEngine(host: EngineHost) {
  const { source, path, t } = host;
  let current: AbortController | null = null;

  const begin = () => {
    current?.abort();
    current = new AbortController();
    return current;
  };
  const fetchPage = (page: number, params: Record<string, string>, signal: AbortSignal, pageFrom?: number) =>
    api().get<ListPage>(source.endpoint, { ...params, page, page_from: pageFrom, limit: source.pageSize }, signal);
  const span = () => {
    const { chunks } = host.read();
    return { first: chunks[0]?.page ?? 1, last: chunks[chunks.length - 1]?.page ?? 1 };
  };
  const setCanonical = (query: string, page: number) => {
    const link = document.querySelector<HTMLLinkElement>('link[rel=canonical]');
    if (!link) return;
    const search = new URLSearchParams(query);
    if (page > 1) search.set('page', String(page));
    link.href = canonicalHref(location.origin, path, search);
  };

  /** Infinite scroll: the next page, appended; the URL's page follows (replaceState). */
  async function append(): Promise<void> {
    const cur = host.read();
    const next = span().last + 1;
    const ctrl = begin();
    host.update({ status: 'appending', announce: t('shows.list.loading') });
    try {
      const res = await fetchPage(next, cur.params, ctrl.signal);
      if (ctrl.signal.aborted) return;
      // The order can shift while the page is open (shows going live): skip repeats.
      const seen = new Set(cur.chunks.flatMap((c) => c.items.map((i) => i.id)));
      const items = toTileItems(source.kind, res.data ?? []).filter((i) => !seen.has(i.id));
      host.update({
        chunks: (prev) => [...prev, { page: next, items }],
        lastPage: Math.max(1, res.last_page),
        total: res.total,
        status: 'idle',
        announce: t(`shows.list.appended.${source.kind}`, { count: items.length, page: next }),
      });
      history.replaceState(history.state, '', pageHref(path, cur.query, next) + location.hash);
      setCanonical(cur.query, next);
    } catch (error) {
      if (isAbort(error, ctrl.signal)) return;
      host.setRetry(() => void append());
      host.update({ status: 'append-error', announce: t('shows.list.error') });
    }
  }

  /** A page link or a filter: the list is replaced (pushState, so Back works). */
  async function replace(page: number, params: Record<string, string>, query: string, push: boolean): Promise<void> {
    const ctrl = begin();
    host.update({ status: 'replacing', announce: t('shows.list.loading') });
    try {
      const res = await fetchPage(page, params, ctrl.signal);
      if (ctrl.signal.aborted) return;
      const items = toTileItems(source.kind, res.data ?? []);
      flushSync(() =>
        host.update({
          chunks: [{ page, items }],
          lastPage: Math.max(1, res.last_page),
          total: res.total,
          params,
          query,
          ...(host.hasPromos ? { promos: page === 1 && res.promos ? res.promos.map(toPromoLite) : [] } : {}),
          status: 'idle',
          announce: t(`shows.list.replaced.${source.kind}`, { count: items.length, page }),
        }),
      );
      if (push) history.pushState({ list: path }, '', pageHref(path, query, page));
      setCanonical(query, page);
      // Back at the top: page 1 means the top of the document, another page the list's top.
      if (page === 1) window.scrollTo({ top: 0 });
      else host.root()?.scrollIntoView({ block: 'start' });
    } catch (error) {
      if (isAbort(error, ctrl.signal)) return;
      host.setRetry(() => void replace(page, params, query, push));
      host.update({ status: 'replace-error', announce: t('shows.list.error') });
    }
  }

  /** Promotions again: the expired ones go, changed ones are updated. */
  async function refetchPromos(): Promise<void> {
    try {
      const res = await api().get<{ data: Promo[] }>('shows/promos');
      const now = Date.now() / 1000;
      const keep = span().first === 1;
      host.update({ promos: keep ? (res.data ?? []).map(toPromoLite).filter((p) => p.stop > now) : [] });
    } catch {
      // the strip keeps what it has; expired ones were hidden by their timer
    }
  }

  /** The forced refresh: the online list again, and for show lists every loaded page at once. */
  async function refresh(): Promise<void> {
    const cur = host.read();
    const { first, last } = span();
    const ctrl = begin();
    host.update({ status: 'refreshing' });
    try {
      const [online, list] = await Promise.all([
        api().get<{ data: number[] }>('shows/online', undefined, ctrl.signal),
        source.endpoint === 'shows' ? fetchPage(last, cur.params, ctrl.signal, first) : Promise.resolve(null),
      ]);
      if (ctrl.signal.aborted) return;
      rebuildOnline(host.store, online.data ?? []);
      const update: ListUpdate = { status: 'idle', announce: t('shows.list.refreshed') };
      if (list) {
        const items = toTileItems(source.kind, list.data ?? []);
        const chunks: Chunk[] = [];
        for (let page = first, i = 0; page <= last; page++, i += source.pageSize) chunks.push({ page, items: items.slice(i, i + source.pageSize) });
        Object.assign(update, { chunks, lastPage: Math.max(1, list.last_page), total: list.total });
      }
      host.update(update);
      if (host.hasPromos) void refetchPromos();
    } catch (error) {
      if (isAbort(error, ctrl.signal)) return;
      host.update({ status: 'idle', announce: t('shows.list.error') });
    }
  }

  /** Back and forward between replaced pages. */
  function popstate(): void {
    if (location.pathname !== path) return;
    const url = new URL(location.href);
    const page = parsePage(url.searchParams.get('page'));
    const q = new URLSearchParams();
    for (const key of PAGINATION_KEEP) {
      const v = url.searchParams.get(key);
      if (v) q.set(key, v);
    }
    const cur = host.read();
    if (page === span().last && q.toString() === cur.query) return; // e.g. only the hash changed
    const params = { ...cur.params };
    if (host.hasFilters) {
      const cat = url.searchParams.get('cat');
      if (cat) params.cat = cat;
      else delete params.cat;
    }
    void replace(page, params, q.toString(), false);
  }

  /** A filter chip: page 1 of the list with the new `cat`. */
  function filter(value: string): void {
    const cur = host.read();
    const params = { ...cur.params };
    if (value) params.cat = value;
    else delete params.cat;
    void replace(1, params, queryWith(cur.query, 'cat', value), true);
  }

  return {
    append,
    replace,
    refresh,
    refetchPromos,
    popstate,
    filter,
    page: (page: number) => {
      const cur = host.read();
      void replace(page, cur.params, cur.query, true);
    },
    abort: () => current?.abort(),
  };
}

export type ListEngine = ReturnType<typeof createListEngine>;
