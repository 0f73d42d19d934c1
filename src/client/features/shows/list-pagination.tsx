import { PAGINATION_LINKS_DESKTOP, PAGINATION_LINKS_MOBILE } from '../../../shared/constants';
import { pageHref, pageItems } from '../../../shared/pagination';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';

/**
 * The list pagination: 9 page links on desktop, 5 on
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
        <a className="page-link nav" href={pageHref(path, query, current - 1)} rel="prev" data-page={current - 1} aria-label={t('pagination.previous')}>
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
            href={pageHref(path, query, item.page)}
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
        <a className="page-link nav" href={pageHref(path, query, current + 1)} rel="next" data-page={current + 1} aria-label={t('pagination.next')}>
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
