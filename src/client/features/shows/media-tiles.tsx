import type { ReactNode } from 'react';
import { showHref } from '../../../shared/shows';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { formatDuration, type TileGallery, type TileVideo } from '../../../shared/show-lists';

// Video and gallery results. Their own pages come later: the tiles lead to the show page.

interface MediaTileProps {
  kind: 'video' | 'gallery';
  id: number;
  href: string;
  image: { src: string; alt: string; width: number; height: number; className?: string };
  badge: ReactNode;
  title: string;
  showName: string;
  price: number;
  rating: number;
  eager: boolean;
}

function MediaTile({ kind, id, href, image, badge, title, showName, price, rating, eager }: MediaTileProps) {
  const t = useT();
  return (
    <article
      className={`media-tile ${kind}-tile`}
      data-video-id={kind === 'video' ? id : undefined}
      data-gallery-id={kind === 'gallery' ? id : undefined}
      data-free={price === 0 ? '1' : undefined}
    >
      <a className="tile-link" href={href}>
        <div className={`tile-media${image.className ? ` ${image.className}` : ''}`}>
          <img src={image.src} alt={image.alt} width={image.width} height={image.height} loading={eager ? 'eager' : 'lazy'} decoding="async" />
          <span className="media-badge">{badge}</span>
        </div>
        <div className="tile-body">
          <h3 className="media-title">{title}</h3>
          <p className="media-show muted small">{showName}</p>
          <div className="tile-meta">
            <span className="price" title={t('search.price')}>
              <Icon name="coins" size={16} />
              {price === 0 ? t('search.free') : t('search.coins', { count: price })}
            </span>
            <span className="rating" aria-label={t('shows.rating', { rating })}>
              <Icon name="star" size={16} />
              {rating}%
            </span>
          </div>
        </div>
      </a>
    </article>
  );
}

export function VideoTile({ video, eager = false }: { video: TileVideo; eager?: boolean }) {
  const t = useT();
  return (
    <MediaTile
      kind="video"
      id={video.id}
      href={showHref({ id: video.show_id, slugName: video.showSlug })}
      image={{ src: video.image, alt: t('search.videoAlt', { title: video.title }), width: 480, height: 270, className: 'media-16x9' }}
      badge={
        <>
          <Icon name="video" size={14} />
          <span className="sr-only">{t('search.duration')}</span>
          {formatDuration(video.duration)}
        </>
      }
      title={video.title}
      showName={video.showName}
      price={video.price}
      rating={video.rating}
      eager={eager}
    />
  );
}

export function GalleryTile({ gallery, eager = false }: { gallery: TileGallery; eager?: boolean }) {
  const t = useT();
  return (
    <MediaTile
      kind="gallery"
      id={gallery.id}
      href={showHref({ id: gallery.showId, slugName: gallery.showSlug })}
      image={{ src: gallery.image, alt: t('search.galleryAlt', { title: gallery.title }), width: 400, height: 300 }}
      badge={t('search.pictures', { count: gallery.picture_count })}
      title={gallery.title}
      showName={gallery.showName}
      price={gallery.price}
      rating={gallery.rating}
      eager={eager}
    />
  );
}

export function VideoGrid({ videos }: { videos: TileVideo[] }) {
  return (
    <div className="media-grid">
      {videos.map((v, i) => (
        <VideoTile key={v.id} video={v} eager={i < 8} />
      ))}
    </div>
  );
}

export function GalleryGrid({ galleries }: { galleries: TileGallery[] }) {
  return (
    <div className="media-grid">
      {galleries.map((g, i) => (
        <GalleryTile key={g.id} gallery={g} eager={i < 8} />
      ))}
    </div>
  );
}
