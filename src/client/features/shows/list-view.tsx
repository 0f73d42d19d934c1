import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useStore, useT } from '../../state/context';
import type { Chunk, ListEngine, ListSnapshot, ListStatus, ListUpdate } from './list-engine';
import { SHOWS_FORCED_REFRESH_MS, type ListProps, type PromoLite } from '../../../shared/show-lists';

const MAX_TIMER_MS = 2_147_483_647;
/** How long the end of the list stays in reach before the next page is fetched. */
const APPEND_DWELL_MS = 400;

function apply<T>(prev: T, next: T | ((p: T) => T) | undefined): T {
  return next === undefined ? prev : typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
}

/**
 * The state of a list island and its triggers: the end of the list in reach (infinite scroll),
 * page links and filter chips (replace), Back/Forward, the refresh rules (every minute and on
 * visibilitychange: everything after 10 minutes, else expired promotions) and promotion stop
 * times. The work itself is in list-engine.ts, loaded on first use.
 */
export function useList(props: ListProps) {
  const { source, path, paged = true } = props;
  const t = useT();
  const store = useStore();
  const [state, setState] = useState(() => ({
    chunks: [{ page: props.page, items: props.items }] as Chunk[],
    lastPage: props.lastPage,
    total: props.total,
    params: source.params,
    query: props.query,
    promos: (props.promos ?? []) as PromoLite[],
    status: 'idle' as ListStatus,
    announce: '',
  }));
  const rootRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const retryRef = useRef<(() => void) | null>(null);
  /** When a page link or filter was last clicked. */
  const intent = useRef(0);
  const lastRefresh = useRef(Date.now());
  const engineRef = useRef<Promise<ListEngine> | null>(null);
  const tRef = useRef(t);
  tRef.current = t;

  const engine = (): Promise<ListEngine> =>
    (engineRef.current ??= import('./list-engine').then((m) =>
      m.createListEngine({
        source,
        path,
        hasPromos: !!props.promos,
        hasFilters: !!props.filters,
        store,
        t: (key, vars) => tRef.current(key, vars),
        read: (): ListSnapshot => stateRef.current,
        update: (u: ListUpdate) =>
          setState((s) => {
            const next = {
              ...s,
              chunks: apply(s.chunks, u.chunks),
              promos: apply(s.promos, u.promos),
              lastPage: u.lastPage ?? s.lastPage,
              total: u.total ?? s.total,
              params: u.params ?? s.params,
              query: u.query ?? s.query,
              status: u.status ?? s.status,
              announce: u.announce ?? s.announce,
            };
            stateRef.current = next;
            return next;
          }),
        root: () => rootRef.current,
        setRetry: (fn) => (retryRef.current = fn),
      }),
    ));
  /** Runs `fn` with the engine; if its chunk fails to load (main.ts reloads after a deploy), the next use tries again. */
  const withEngine = (fn: (e: ListEngine) => unknown) =>
    void engine().then(fn, () => {
      engineRef.current = null;
    });
  const refresh = () => {
    lastRefresh.current = Date.now();
    withEngine((e) => e.refresh());
  };

  const { chunks, status } = state;
  const first = chunks[0]?.page ?? 1;
  const last = chunks[chunks.length - 1]?.page ?? 1;
  const hasMore = paged && last < state.lastPage;

  // Infinite scroll: a sentinel after the grid. The end has to stay in reach for a moment
  // (someone heading for a page link scrolls past it and clicks: that replaces instead), and a
  // new observer after every load checks at once whether the end is still in reach.
  useEffect(() => {
    if (!hasMore || status !== 'idle' || typeof IntersectionObserver === 'undefined') return;
    const el = sentinelRef.current;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        clearTimeout(timer);
        if (!entries.some((e) => e.isIntersecting)) return;
        timer = setTimeout(() => {
          if (Date.now() - intent.current < 2_000) return;
          observer.disconnect();
          withEngine((e) => e.append());
        }, APPEND_DWELL_MS);
      },
      { rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(el);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [hasMore, status, last]);

  useEffect(() => {
    if (!paged) return;
    const onPop = () => withEngine((e) => e.popstate());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [paged]);

  // Refresh rules.
  useEffect(() => {
    if (!props.refresh) return;
    const tick = () => {
      if (document.visibilityState !== 'visible') return;
      if (Date.now() - lastRefresh.current >= SHOWS_FORCED_REFRESH_MS) refresh();
      else if (stateRef.current.promos.some((p) => p.stop * 1000 <= Date.now())) withEngine((e) => e.refetchPromos());
    };
    document.addEventListener('visibilitychange', tick);
    const timer = setInterval(tick, 60_000);
    return () => {
      document.removeEventListener('visibilitychange', tick);
      clearInterval(timer);
    };
  }, [props.refresh]);

  // Each promotion disappears at its stop time; then the promotions are asked again.
  useEffect(() => {
    if (state.promos.length === 0) return;
    const next = Math.min(...state.promos.map((p) => p.stop * 1000));
    const timer = setTimeout(
      () => {
        const now = Date.now() / 1000;
        setState((s) => ({ ...s, promos: s.promos.filter((p) => p.stop > now) }));
        withEngine((e) => e.refetchPromos());
      },
      Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now())),
    );
    return () => clearTimeout(timer);
  }, [state.promos]);

  useEffect(() => () => void engineRef.current?.then((e) => e.abort(), () => undefined), []);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const target = e.target as HTMLElement;
    const pageLink = paged ? target.closest<HTMLAnchorElement>('.pagination a[data-page]') : null;
    const filter = target.closest<HTMLAnchorElement>('a[data-filter]');
    if (pageLink || filter) intent.current = Date.now();
    if (pageLink) {
      e.preventDefault();
      const page = Number(pageLink.dataset.page) || 1;
      withEngine((en) => en.page(page));
    } else if (filter) {
      e.preventDefault();
      const value = filter.dataset.filter ?? '';
      withEngine((en) => en.filter(value));
    }
  };

  return {
    ...state,
    first,
    last,
    hasMore,
    paged,
    rootRef,
    sentinelRef,
    onClick,
    refresh,
    append: () => withEngine((e) => e.append()),
    retry: () => retryRef.current?.(),
  };
}

export type ListView = ReturnType<typeof useList>;
