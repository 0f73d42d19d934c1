import { useState } from 'react';
import { showImageSrc } from '../../../shared/shows';
import { Icon } from '../../ui/icon';
import { useT } from '../../state/context';

export interface ShowGalleryProps {
  id: number;
  name: string;
  previews: number[];
}

/** The show's preview pictures: one large, thumbnails to pick from, arrows to step through. */
export default function ShowGallery({ id, name, previews }: ShowGalleryProps) {
  const t = useT();
  const [index, setIndex] = useState(0);
  const count = previews.length;
  if (count === 0) return null;
  const current = previews[Math.min(index, count - 1)];
  const step = (d: number) => setIndex((i) => (i + d + count) % count);
  return (
    <div className="show-gallery" data-testid="show-gallery">
      <div className="gallery-main">
        <img
          src={showImageSrc(id, current, true)}
          alt={t('shows.gallery.alt', { name, n: index + 1, count })}
          width={800}
          height={600}
          decoding="async"
          fetchPriority="high"
        />
        {count > 1 && (
          <>
            <button type="button" className="gallery-arrow prev" onClick={() => step(-1)} aria-label={t('shows.gallery.previous')}>
              <Icon name="chevronLeft" size={28} />
            </button>
            <button type="button" className="gallery-arrow next" onClick={() => step(1)} aria-label={t('shows.gallery.next')}>
              <Icon name="chevronRight" size={28} />
            </button>
            <span className="gallery-count" aria-hidden="true">
              {index + 1} / {count}
            </span>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="gallery-thumbs">
          {previews.map((p, i) => (
            <li key={p}>
              <button
                type="button"
                className={i === index ? 'thumb active' : 'thumb'}
                aria-current={i === index ? 'true' : undefined}
                aria-label={t('shows.gallery.thumb', { n: i + 1, count })}
                onClick={() => setIndex(i)}
              >
                <img src={showImageSrc(id, p)} alt="" width={120} height={90} loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
