import type { ReactNode } from 'react';
import type { ArchiveCounts } from '../../../shared/store';
import type { ListProps, TileGallery, TileVideo } from '../../../shared/show-lists';
import { useT } from '../../state/context';
import { Island } from '../../ui/island';
import MediaList from '../shows/media-list.island';
import { GalleryGrid, VideoGrid } from '../shows/media-tiles';
import { PageHeader } from '../../ui/page-header';

export interface StoreTab {
  key: string;
  label: string;
  href: string;
  active: boolean;
}

/** A paged list of videos or galleries (the store, a show's, the archive's), with tabs to switch kind. */
export function StoreListPage({ title, lead, count, tabs, list }: { title: string; lead: string; count: string; tabs: StoreTab[]; list: ListProps }) {
  const t = useT();
  return (
    <section className={`shows-page store-list-page store-${list.source.kind}`} data-testid={`store-${list.source.kind}`}>
      <PageHeader title={title} lead={lead}>
        {/* The heading of the tiles below (their titles are h3): styled as the small count it is. */}
        <h2 className="page-count muted small" data-testid="store-count">
          {count}
        </h2>
      </PageHeader>
      {tabs.length > 0 && (
        <nav className="filter-chips store-tabs" aria-label={t('store.tabs')}>
          {tabs.map((tab) => (
            <a key={tab.key} href={tab.href} className={tab.active ? 'cat-chip active' : 'cat-chip'} aria-current={tab.active ? 'page' : undefined}>
              {tab.label}
            </a>
          ))}
        </nav>
      )}
      <Island name="MediaList" component={MediaList} props={list} />
    </section>
  );
}

/** /users/archive: counts and the newest purchases of each kind. */
export function ArchivePage({ counts, videos, galleries }: { counts: ArchiveCounts; videos: TileVideo[]; galleries: TileGallery[] }) {
  const t = useT();
  return (
    <section className="shows-page archive-page" data-testid="archive">
      <PageHeader title={t('store.archive.title')} lead={t('store.archive.lead')} />
      <ArchiveSection kind="video" count={counts.video_count} spent={counts.video_total}>
        {videos.length > 0 && <VideoGrid videos={videos} ctx="store" />}
      </ArchiveSection>
      <ArchiveSection kind="gallery" count={counts.gallery_count} spent={counts.gallery_total}>
        {galleries.length > 0 && <GalleryGrid galleries={galleries} ctx="store" />}
      </ArchiveSection>
    </section>
  );
}

/** What the archive page says of one kind: its count and spending, a link to all, the newest tiles or the store's link. */
const ARCHIVE_KIND = {
  video: { plural: 'videos', all: 'allVideos', none: 'noVideos', store: '/videos' },
  gallery: { plural: 'galleries', all: 'allGalleries', none: 'noGalleries', store: '/galleries' },
} as const;

function ArchiveSection({ kind, count, spent, children }: { kind: keyof typeof ARCHIVE_KIND; count: number; spent: number; children: ReactNode }) {
  const t = useT();
  const k = ARCHIVE_KIND[kind];
  return (
    <section className="show-section">
      <div className="section-head">
        <h2 data-testid={`archive-${kind}-count`}>{t(`store.archive.${k.plural}`, { count })}</h2>
        <p className="muted small">{t('store.archive.spent', { count: spent })}</p>
        {count > 0 && (
          <a className="btn btn-outline btn-small" href={`/users/archive/${k.plural}`}>
            {t(`store.archive.${k.all}`)}
          </a>
        )}
      </div>
      {children || (
        <div className="empty-state">
          <p>{t(`store.archive.${k.none}`)}</p>
          <a className="btn btn-primary" href={k.store}>
            {t(`store.nav.${k.plural}`)}
          </a>
        </div>
      )}
    </section>
  );
}
