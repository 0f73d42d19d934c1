import { showHref } from '../../../shared/shows';
import { useT } from '../../state/context';
import { Icon } from '../icon';
import { formatDuration, type TileGallery, type TileVideo } from './list-data';

// Video and gallery results. Their own pages come later: the tiles lead to the show page.

export function VideoTile({ video, eager = false }: { video: TileVideo; eager?: boolean }) {
  const t = useT();
  return (
    <article className="media-tile video-tile" data-video-id={video.id}>
      <a className="tile-link" href={showHref({ id: video.show_id, slugName: video.showSlug })}>
        <div className="tile-media media-16x9">
          <img src={video.image} alt={t('search.videoAlt', { title: video.title })} width={480} height={270} loading={eager ? 'eager' : 'lazy'} decoding="async" />
          <span className="media-badge">
            <Icon name="video" size={14} />
            <span className="sr-only">{t('search.duration')}</span>
            {formatDuration(video.duration)}
          </span>
        </div>
        <div className="tile-body">
          <h3 className="media-title">{video.title}</h3>
          <p className="media-show muted small">{video.showName}</p>
          <div className="tile-meta">
            <span className="price" title={t('search.price')}>
              <Icon name="coins" size={16} />
              {t('search.coins', { count: video.price })}
            </span>
            <span className="rating" aria-label={t('shows.rating', { rating: video.rating })}>
              <Icon name="star" size={16} />
              {video.rating}%
            </span>
          </div>
        </div>
      </a>
    </article>
  );
}

export function GalleryTile({ gallery, eager = false }: { gallery: TileGallery; eager?: boolean }) {
  const t = useT();
  return (
    <article className="media-tile gallery-tile" data-gallery-id={gallery.id}>
      <a className="tile-link" href={showHref({ id: gallery.showId, slugName: gallery.showSlug })}>
        <div className="tile-media">
          <img src={gallery.image} alt={t('search.galleryAlt', { title: gallery.title })} width={400} height={300} loading={eager ? 'eager' : 'lazy'} decoding="async" />
          <span className="media-badge">{t('search.pictures', { count: gallery.picture_count })}</span>
        </div>
        <div className="tile-body">
          <h3 className="media-title">{gallery.title}</h3>
          <p className="media-show muted small">{gallery.showName}</p>
          <div className="tile-meta">
            <span className="price" title={t('search.price')}>
              <Icon name="coins" size={16} />
              {t('search.coins', { count: gallery.price })}
            </span>
            <span className="rating" aria-label={t('shows.rating', { rating: gallery.rating })}>
              <Icon name="star" size={16} />
              {gallery.rating}%
            </span>
          </div>
        </div>
      </a>
    </article>
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
