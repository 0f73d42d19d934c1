import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useStore, useT } from '../../state/context';
import type { Chunk, ListEngine, ListSnapshot, ListStatus, ListUpdate } from './list-engine';
import { SHOWS_FORCED_REFRESH_MS, type ListProps, type PromoLite } from '../../../shared/show-lists';
import { pageHref } from '../../../shared/pagination';
import { ListPagination } from './list-pagination';
import { PromoStrip } from './promo-strip';

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

function RefreshIcon() {
  return (
    <svg className="icon" width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.75 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4l-2.35 2.35z" />
    </svg>
  );
}

/** Everything around the grid: promotions, filters and refresh, states, the end of the list, pagination. */
export function ListFrame({ list, props, count, children }: { list: ListView; props: ListProps; count: number; children: ReactNode }) {
  const t = useT();
  const kind = props.source.kind;
  const busy = list.status === 'appending' || list.status === 'replacing' || list.status === 'refreshing';
  const activeFilter = list.params.cat ?? '';
  const search = list.params.search?.trim() ?? '';
  const term = search === '*' ? '' : search;
  const showPromos = list.first === 1 && list.promos.length > 0;
  const refreshButton = props.refresh ? (
    <button
      type="button"
      className="btn btn-outline btn-small list-refresh"
      onClick={list.refresh}
      disabled={busy}
      aria-label={t('shows.list.refresh')}
      data-testid="list-refresh"
    >
      <RefreshIcon />
      <span className="hide-xs">{t('shows.list.refresh')}</span>
    </button>
  ) : null;
  const error = (
    <div className="list-error" role="alert">
      <span>{t('shows.list.error')}</span>
      <button type="button" className="btn btn-outline btn-small" onClick={list.retry}>
        {t('shows.list.retry')}
      </button>
    </div>
  );
  return (
    <div className="show-list" ref={list.rootRef} onClick={list.onClick} data-kind={kind} data-first-page={list.first} data-last-page={list.last} aria-busy={busy}>
      {showPromos && <PromoStrip promos={list.promos} aside={refreshButton} />}
      {(props.filters || (refreshButton && !showPromos)) && (
        <div className="list-toolbar">
          {props.filters && (
            <nav className="filter-chips" aria-label={t('shows.list.filters')}>
              {props.filters.map((f) => {
                const q = new URLSearchParams(list.query);
                if (f.value) q.set('cat', f.value);
                else q.delete('cat');
                return (
                  <a
                    key={f.value || 'all'}
                    href={pageHref(props.path, q.toString(), 1)}
                    className={f.value === activeFilter ? 'cat-chip active' : 'cat-chip'}
                    aria-current={f.value === activeFilter ? 'true' : undefined}
                    data-filter={f.value}
                  >
                    {f.label}
                  </a>
                );
              })}
            </nav>
          )}
          {!showPromos && refreshButton}
        </div>
      )}
      {list.status === 'replace-error' && error}
      {count === 0 && list.status !== 'replacing' ? (
        <div className="empty-state">
          <p>{term ? t('shows.list.noMatch', { term }) : t(`shows.list.empty.${kind}`)}</p>
          {kind === 'shows' && (
            <a className="btn btn-primary" href="/shows/all-shows">
              {t('shows.list.allShows')}
            </a>
          )}
        </div>
      ) : (
        <div className={list.status === 'replacing' ? 'list-grid replacing' : 'list-grid'}>{children}</div>
      )}
      {list.paged && (
        <div className="list-end" ref={list.sentinelRef}>
          {list.status === 'appending' && (
            <p className="list-loading">
              <span className="list-spinner" aria-hidden="true" />
              {t('shows.list.loading')}
            </p>
          )}
          {list.status === 'append-error' && error}
          {list.status === 'idle' && list.hasMore && (
            <button type="button" className="btn btn-outline list-more" onClick={list.append}>
              {t(`shows.list.more.${kind}`)}
            </button>
          )}
          {!list.hasMore && list.last > 1 && count > 0 && <p className="muted small list-done">{t(`shows.list.done.${kind}`, { count: list.total })}</p>}
        </div>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {list.announce}
      </p>
      {list.paged && <ListPagination path={props.path} query={list.query} current={list.last} last={list.lastPage} />}
    </div>
  );
}
