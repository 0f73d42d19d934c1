import { Island } from '../../ui/island';
import type { ListProps } from '../../../shared/show-lists';
import MediaList from './media-list.island';
import ShowList from './show-list.island';
import { useT } from '../../state/context';
import { PageHeader } from '../../ui/page-header';

/**
 * /freeshow and /freevideo: the shows whose free chat is open right now, and the free videos.
 * Only what the list holds is promised: joining a chat and playing a video come with the show
 * page and the store.
 */
export function FreeListPage({ kind, list }: { kind: 'shows' | 'videos'; list: ListProps }) {
  const t = useT();
  const key = kind === 'shows' ? 'freeShows' : 'freeVideos';
  return (
    <section className={`shows-page free-${kind}-page`} data-testid={`free-${kind}`}>
      <PageHeader title={t(`${key}.title`)} lead={t(`${key}.lead`)}>
        {/* The heading of the tiles below (their titles are h3), looking like the count it is. */}
        <h2 className="page-count muted small" data-testid="free-count">
          {t(`${key}.count`, { count: list.total })}
        </h2>
      </PageHeader>
      {kind === 'shows' ? <Island name="ShowList" component={ShowList} props={list} /> : <Island name="MediaList" component={MediaList} props={list} />}
    </section>
  );
}
