import type { Paged, ShowSummary } from '../../shared/shows';
import { Pagination } from '../components/pagination';
import { ShowGrid } from '../components/show-tile';
import { useT } from '../state/context';

/** Home, all shows and a category: a heading, the grid, pagination; an empty state when nothing is there. */
export function ShowsPage({
  title,
  subtitle,
  list,
  path,
  query,
}: {
  title: string;
  subtitle?: string;
  list: Paged<ShowSummary>;
  path: string;
  query: string;
}) {
  const t = useT();
  return (
    <section className="shows-page">
      <header className="page-header">
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
      </header>
      {list.data.length === 0 ? (
        <div className="empty-state">
          <p>{t('shows.empty')}</p>
          <a className="btn btn-primary" href="/shows/all-shows">
            {t('nav.allShows')}
          </a>
        </div>
      ) : (
        <ShowGrid shows={list.data} />
      )}
      <Pagination path={path} query={query} current={list.current_page} last={list.last_page} />
    </section>
  );
}
