import type { ReactNode } from 'react';
import { pick } from '../../../shared/pick';
import type { GalleryDetail, VideoDetail } from '../../../shared/store';
import { formatDuration, type TileGallery, type TileVideo } from '../../../shared/show-lists';
import type { StoreContext } from '../../../shared/store-links';
import { useT } from '../../state/context';
import { Island } from '../../ui/island';
import { Icon } from '../../ui/icon';
import { GalleryGrid, VideoGrid } from '../shows/media-tiles';
import StoreClip from './store-clip.island';
import StoreGallery from './store-gallery.island';
import ReportButtonIsland from '../reports/report-button.island';

interface ShowLink {
  name: string;
  href: string;
}

/** The item's title, its show and facts: those given (meta), then its price and rating. */
function ItemHeader({ item, show, meta }: { item: { title: string; price: number; rating: number }; show: ShowLink; meta: string[] }) {
  const t = useT();
  const facts = [...meta, item.price === 0 ? t('search.free') : t('search.coins', { count: item.price }), `${item.rating}%`];
  return (
    <header className="page-header store-item-header">
      <h1 data-testid="item-title">{item.title}</h1>
      <p className="muted">
        {t('store.by')}{' '}
        <a href={show.href} data-testid="item-show">
          {show.name}
        </a>
        {facts.map((m) => (
          <span key={m}> · {m}</span>
        ))}
      </p>
    </header>
  );
}

/** More like this: a strip of tiles under the item. */
function MoreLike({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section className="show-section more-like" data-testid="more-like">
      <h2>{title}</h2>
      <div className="more-strip">{children}</div>
    </section>
  );
}

/** The clip page: title and show, the player island, more like this (12). */
export function ClipPage({ video, part, basePath, show, more, ctx }: { video: VideoDetail; part: number; basePath: string; show: ShowLink; more: TileVideo[]; ctx: StoreContext }) {
  const t = useT();
  return (
    <article className="store-page clip-page" data-video-id={video.id}>
      <ItemHeader item={video} show={show} meta={[formatDuration(video.duration), t('store.partsCount', { count: video.parts_list.length })]} />
      <Island
        name="StoreClip"
        component={StoreClip}
        props={{
          video: pick(video, ['id', 'ccid', 'title', 'poster', 'price', 'owned', 'my_rating', 'rating', 'rating_votes', 'views', 'tags', 'parts_list']),
          part,
          basePath,
        }}
      />
      <Island name="ReportButton" component={ReportButtonIsland} props={{ kind: 'video', targetId: String(video.id) }} />
      {more.length > 0 && (
        <MoreLike
          title={
            <>
              <Icon name="video" size={20} /> {t('store.moreLike')}
            </>
          }
        >
          <VideoGrid videos={more} ctx={ctx} />
        </MoreLike>
      )}
    </article>
  );
}

/** The gallery page: title and show, the grid/viewer island, more like this. */
export function GalleryPage({ gallery, show, more, ctx }: { gallery: GalleryDetail; show: ShowLink; more: TileGallery[]; ctx: StoreContext }) {
  const t = useT();
  return (
    <article className="store-page gallery-page" data-gallery-id={gallery.id}>
      <ItemHeader item={gallery} show={show} meta={[t('search.pictures', { count: gallery.picture_count })]} />
      <Island
        name="StoreGallery"
        component={StoreGallery}
        props={{
          gallery: pick(gallery, ['id', 'showId', 'title', 'price', 'owned', 'my_rating', 'rating', 'pictures']),
        }}
      />
      <Island name="ReportButton" component={ReportButtonIsland} props={{ kind: 'picture', targetId: String(gallery.id), showId: gallery.showId }} />
      {more.length > 0 && (
        <MoreLike title={t('store.moreLikeGalleries')}>
          <GalleryGrid galleries={more} ctx={ctx} />
        </MoreLike>
      )}
    </article>
  );
}
