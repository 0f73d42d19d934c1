import { PAGINATION_LINKS_DESKTOP, PAGINATION_LINKS_MOBILE } from '../../../shared/constants';
import { PAGINATION_KEEP, pageItems } from '../../../shared/pagination';
import { useT } from '../../state/context';
import { Icon } from '../icon';

/** Query keys page links keep: the spec's (search, tags, sort, cat) and a location search's. */
export const LIST_KEEP = [...PAGINATION_KEEP, 'lat', 'lon'] as const;

/** Link to `page` keeping the list's query keys; page 1 drops the page key. */
export function listPageHref(path: string, query: string | URLSearchParams, page: number): string {
  const search = typeof query === 'string' ? new URLSearchParams(query) : query;
  const q = new URLSearchParams();
  for (const key of LIST_KEEP) {
    const v = search.get(key);
    if (v) q.set(key, v);
  }
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * The list pagination (same markup as components/pagination.tsx): 9 page links on desktop, 5 on
 * small screens via a CSS class, hidden when there is one page. Links work without script; the
 * list island turns clicks into a list replace.
 */
export function ListPagination({ path, query, current, last }: { path: string; query: string; current: number; last: number }) {
  const t = useT();
  if (last <= 1) return null;
  const small = new Set(pageItems(current, last, PAGINATION_LINKS_MOBILE).flatMap((i) => (i.kind === 'page' ? [i.page] : [])));
  const items = pageItems(current, last, PAGINATION_LINKS_DESKTOP);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {current > 1 ? (
        <a className="page-link nav" href={listPageHref(path, query, current - 1)} rel="prev" data-page={current - 1} aria-label={t('pagination.previous')}>
          <Icon name="chevronLeft" size={20} />
        </a>
      ) : (
        <span className="page-link nav disabled" aria-hidden="true">
          <Icon name="chevronLeft" size={20} />
        </span>
      )}
      {items.map((item) =>
        item.kind === 'gap' ? (
          <span key={item.key} className="page-gap desktop-only" aria-hidden="true">
            …
          </span>
        ) : (
          <a
            key={item.page}
            href={listPageHref(path, query, item.page)}
            data-page={item.page}
            className={['page-link', item.page === current ? 'active' : '', small.has(item.page) ? '' : 'desktop-only'].filter(Boolean).join(' ')}
            aria-current={item.page === current ? 'page' : undefined}
            aria-label={t('pagination.page', { page: item.page })}
          >
            {item.page}
          </a>
        ),
      )}
      {current < last ? (
        <a className="page-link nav" href={listPageHref(path, query, current + 1)} rel="next" data-page={current + 1} aria-label={t('pagination.next')}>
          <Icon name="chevronRight" size={20} />
        </a>
      ) : (
        <span className="page-link nav disabled" aria-hidden="true">
          <Icon name="chevronRight" size={20} />
        </span>
      )}
    </nav>
  );
}
