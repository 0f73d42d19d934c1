import type { ReactNode } from 'react';
import { useT } from '../../state/context';
import type { ListProps } from '../../../shared/show-lists';
import { pageHref } from '../../../shared/pagination';
import { ListPagination } from './list-pagination';
import type { ListView } from './list-view';
import { PromoStrip } from './promo-strip';

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
