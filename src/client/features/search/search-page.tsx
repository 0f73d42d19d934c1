import { Island } from '../../ui/island';
import SearchForm from './search-form.island';
import type { ListProps } from '../../../shared/show-lists';
import MediaList from '../shows/media-list.island';
import ShowList from '../shows/show-list.island';
import { useT } from '../../state/context';
import { withQuery } from '../../../shared/search-query';
import { PageHeader } from '../../ui/page-header';

export type SearchTab = 'all' | 'shows' | 'videos' | 'galleries';

export interface SearchSection {
  kind: 'shows' | 'videos' | 'galleries';
  total: number;
  href: string;
  list: ListProps;
}

export interface SearchPageProps {
  prefix: '/search' | '/~search';
  tab: SearchTab;
  title: string;
  subtitle: string | null;
  term: string;
  /** Query string (no ?) the tabs keep. */
  tabQuery: string;
  /** Tabs for videos and galleries make no sense for a location or tag search. */
  showsOnly: boolean;
  /** The overview: up to three sections; a tab: one paged list. */
  sections?: SearchSection[];
  list?: ListProps;
}

/** /search and its tabs: the search form, tabs, then the overview sections or one paged list. */
export function SearchPage(p: SearchPageProps) {
  const t = useT();
  const tabs: { key: SearchTab; href: string }[] = p.showsOnly
    ? []
    : [
        { key: 'all', href: withQuery(p.prefix, p.tabQuery) },
        { key: 'shows', href: withQuery(`${p.prefix}/shows`, p.tabQuery) },
        { key: 'videos', href: withQuery(`${p.prefix}/videos`, p.tabQuery) },
        { key: 'galleries', href: withQuery(`${p.prefix}/galleries`, p.tabQuery) },
      ];
  const nothing = p.sections && p.sections.every((s) => s.total === 0);
  return (
    <section className="search-page" data-tab={p.tab}>
      <PageHeader title={p.title} lead={p.subtitle} />
      <Island
        name="SearchForm"
        component={SearchForm}
        props={{ action: p.tab === 'all' ? p.prefix : `${p.prefix}/${p.tab}`, nearbyAction: `${p.prefix}/shows`, term: p.term }}
      />
      {tabs.length > 0 && (
        <nav className="search-tabs" aria-label={t('search.tabs')}>
          {tabs.map((tab) => (
            <a key={tab.key} href={tab.href} className={tab.key === p.tab ? 'search-tab active' : 'search-tab'} aria-current={tab.key === p.tab ? 'page' : undefined}>
              {t(`search.tab.${tab.key}`)}
            </a>
          ))}
        </nav>
      )}
      {nothing && (
        <div className="empty-state" data-testid="search-empty">
          <p>{p.term ? t('search.noResultsFor', { term: p.term }) : t('search.noResults')}</p>
          <a className="btn btn-primary" href="/shows/all-shows">
            {t('shows.list.allShows')}
          </a>
        </div>
      )}
      {!nothing &&
        p.sections?.map((s) =>
          s.total === 0 ? null : (
            <section key={s.kind} className="search-section" data-section={s.kind}>
              <header className="search-section-head">
                <h2>{t(`search.section.${s.kind}`, { count: s.total })}</h2>
                {s.total > s.list.items.length && (
                  <a className="btn btn-text search-all" href={s.href}>
                    {t(`search.all.${s.kind}`, { count: s.total })}
                  </a>
                )}
              </header>
              <ListIsland list={s.list} />
            </section>
          ),
        )}
      {p.list && <ListIsland list={p.list} />}
    </section>
  );
}

/** Shows in the ShowList island (live tiles), videos and galleries in MediaList. */
function ListIsland({ list }: { list: ListProps }) {
  return list.source.kind === 'shows' ? (
    <Island name="ShowList" component={ShowList} props={list} />
  ) : (
    <Island name="MediaList" component={MediaList} props={list} />
  );
}
