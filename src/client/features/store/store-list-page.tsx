import type { ArchiveCounts } from '../../../shared/store';
import type { ListProps, TileGallery, TileVideo } from '../../../shared/show-lists';
import { useT } from '../../state/context';
import { Island } from '../../ui/island';
import MediaList from '../shows/media-list.island';
import { GalleryGrid, VideoGrid } from '../shows/media-tiles';

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
      <header className="page-header">
        <h1>{title}</h1>
        <p className="muted">{lead}</p>
        {/* The heading of the tiles below (their titles are h3): styled as the small count it is. */}
        <h2 className="page-count muted small" data-testid="store-count">
          {count}
        </h2>
      </header>
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
      <header className="page-header">
        <h1>{t('store.archive.title')}</h1>
        <p className="muted">{t('store.archive.lead')}</p>
      </header>
      <section className="show-section">
        <div className="section-head">
          <h2 data-testid="archive-video-count">{t('store.archive.videos', { count: counts.video_count })}</h2>
          <p className="muted small">{t('store.archive.spent', { count: counts.video_total })}</p>
          {counts.video_count > 0 && (
            <a className="btn btn-outline btn-small" href="/users/archive/videos">
              {t('store.archive.allVideos')}
            </a>
          )}
        </div>
        {videos.length > 0 ? (
          <VideoGrid videos={videos} ctx="store" />
        ) : (
          <div className="empty-state">
            <p>{t('store.archive.noVideos')}</p>
            <a className="btn btn-primary" href="/videos">
              {t('store.nav.videos')}
            </a>
          </div>
        )}
      </section>
      <section className="show-section">
        <div className="section-head">
          <h2 data-testid="archive-gallery-count">{t('store.archive.galleries', { count: counts.gallery_count })}</h2>
          <p className="muted small">{t('store.archive.spent', { count: counts.gallery_total })}</p>
          {counts.gallery_count > 0 && (
            <a className="btn btn-outline btn-small" href="/users/archive/galleries">
              {t('store.archive.allGalleries')}
            </a>
          )}
        </div>
        {galleries.length > 0 ? (
          <GalleryGrid galleries={galleries} ctx="store" />
        ) : (
          <div className="empty-state">
            <p>{t('store.archive.noGalleries')}</p>
            <a className="btn btn-primary" href="/galleries">
              {t('store.nav.galleries')}
            </a>
          </div>
        )}
      </section>
    </section>
  );
}
