import type { ReactNode } from 'react';
import { clipHref, picturesHref, type StoreContext } from '../../../shared/store-links';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { formatDuration, type TileGallery, type TileVideo } from '../../../shared/show-lists';

// Video and gallery tiles: each opens its store page (clip or pictures) in the list's context.

interface MediaTileProps {
  kind: 'video' | 'gallery';
  /** The video or gallery: what both kinds of tile show of it. */
  item: { id: number; title: string; showName: string; price: number; rating: number; owned?: boolean };
  href: string;
  image: { src: string; alt: string; width: number; height: number; className?: string };
  badge: ReactNode;
  eager: boolean;
}

function MediaTile({ kind, item, href, image, badge, eager }: MediaTileProps) {
  const t = useT();
  const { id, title, showName, price, rating, owned } = item;
  return (
    <article
      className={`media-tile ${kind}-tile`}
      data-video-id={kind === 'video' ? id : undefined}
      data-gallery-id={kind === 'gallery' ? id : undefined}
      data-free={price === 0 ? '1' : undefined}
      data-owned={owned ? '1' : undefined}
    >
      <a className="tile-link" href={href}>
        <div className={`tile-media${image.className ? ` ${image.className}` : ''}`}>
          <img src={image.src} alt={image.alt} width={image.width} height={image.height} loading={eager ? 'eager' : 'lazy'} decoding="async" />
          <span className="media-badge">{badge}</span>
          {owned && (
            <span className="owned-badge" data-testid="owned-badge">
              <Icon name="check" size={14} />
              {t('store.yours')}
            </span>
          )}
        </div>
        <div className="tile-body">
          <h3 className="media-title">{title}</h3>
          <p className="media-show muted small">{showName}</p>
          <div className="tile-meta">
            <span className="price" title={t('search.price')}>
              {price === 0 ? t('search.free') : t('search.coins', { count: price })}
            </span>
            <span className="rating" role="img" aria-label={t('shows.rating', { rating })}>
              {rating}%
            </span>
          </div>
        </div>
      </a>
    </article>
  );
}

export function VideoTile({ video, eager = false, ctx }: { video: TileVideo; eager?: boolean; ctx?: StoreContext }) {
  const t = useT();
  return (
    <MediaTile
      kind="video"
      item={video}
      href={clipHref(video, ctx)}
      image={{ src: video.image, alt: t('search.videoAlt', { title: video.title }), width: 480, height: 270, className: 'media-16x9' }}
      badge={
        <>
          <Icon name="video" size={14} />
          <span className="sr-only">{t('search.duration')}</span>
          {formatDuration(video.duration)}
        </>
      }
      eager={eager}
    />
  );
}

export function GalleryTile({ gallery, eager = false, ctx }: { gallery: TileGallery; eager?: boolean; ctx?: StoreContext }) {
  const t = useT();
  return (
    <MediaTile
      kind="gallery"
      item={gallery}
      href={picturesHref(gallery, ctx)}
      image={{ src: gallery.image, alt: t('search.galleryAlt', { title: gallery.title }), width: 400, height: 300 }}
      badge={t('search.pictures', { count: gallery.picture_count })}
      eager={eager}
    />
  );
}

export function VideoGrid({ videos, ctx }: { videos: TileVideo[]; ctx?: StoreContext }) {
  return (
    <div className="media-grid">
      {videos.map((v, i) => (
        <VideoTile key={v.id} video={v} eager={i < 4} ctx={ctx} />
      ))}
    </div>
  );
}

export function GalleryGrid({ galleries, ctx }: { galleries: TileGallery[]; ctx?: StoreContext }) {
  return (
    <div className="media-grid">
      {galleries.map((g, i) => (
        <GalleryTile key={g.id} gallery={g} eager={i < 4} ctx={ctx} />
      ))}
    </div>
  );
}
