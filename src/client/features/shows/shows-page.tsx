import { Island } from '../../ui/island';
import ShowList, { type ShowListProps } from './show-list.island';

/** Home, all shows and a category: a heading and the live list island (grid, infinite scroll, pagination). */
export function ShowsPage({ title, subtitle, list }: { title: string; subtitle?: string; list: ShowListProps }) {
  return (
    <section className="shows-page">
      <header className="page-header">
        <h1>{title}</h1>
        {/* The heading of the tiles below (their titles are h3), looking like the line it is. */}
        {subtitle && <h2 className="page-count muted">{subtitle}</h2>}
      </header>
      <Island name="ShowList" component={ShowList} props={list} />
    </section>
  );
}
