import { useRef, useState } from 'react';
import { mediaUrl, type BuyAnswer, type GalleryDetail } from '../../../shared/store';
import { useSnap, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { PictureViewer } from './picture-viewer';
import { BuyBox, OwnedBox, RatingControl } from './store-controls';

export type StoreGalleryData = Pick<GalleryDetail, 'id' | 'showId' | 'title' | 'price' | 'owned' | 'my_rating' | 'rating' | 'pictures'>;

export interface StoreGalleryProps {
  gallery: StoreGalleryData;
}

/** A gallery: its grid (blurred and locked until bought), buying, rating and the viewer for owners. */
export default function StoreGallery({ gallery }: StoreGalleryProps) {
  const t = useT();
  const snap = useSnap();
  const [owned, setOwned] = useState(gallery.owned);
  const [open, setOpen] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  // Free galleries are open to everyone (their full pictures too); bought ones to their owner.
  const unlocked = owned || gallery.price === 0;
  const pictures = gallery.pictures.map((p) => ({
    idx: p.idx,
    width: p.width,
    height: p.height,
    thumb: p.thumb_url,
    src: p.full_url ?? mediaUrl.picture(gallery.id, p.idx, 'full'),
  }));

  const onBought = (a: BuyAnswer) => {
    setOwned(true);
    setNotice(a.already ? t('store.buy.already') : a.voucher ? t('store.buy.donePrize') : t('store.buy.done'));
  };
  const close = () => {
    setOpen(null);
    opener.current?.focus();
  };

  return (
    <div className="store-gallery" data-testid="store-gallery" data-owned={unlocked ? '1' : '0'}>
      <div className="clip-actions">
        {unlocked ? (
          <OwnedBox testId="gallery-owned" notice={notice} rating={snap.user && <RatingControl path={`galleries/rate/${gallery.showId}/${gallery.id}`} rating={gallery.rating} votes={null} mine={gallery.my_rating} />} />
        ) : (
          <BuyBox kind="gallery" price={gallery.price} path={`galleries/buy/${gallery.showId}/${gallery.id}`} onBought={onBought} />
        )}
      </div>
      <ul className={unlocked ? 'picture-grid' : 'picture-grid locked'} data-testid="picture-grid">
        {pictures.map((p, i) => (
          <li key={p.idx}>
            {unlocked ? (
              <button
                type="button"
                className="picture-thumb"
                onClick={(e) => {
                  opener.current = e.currentTarget;
                  setOpen(i);
                }}
                aria-label={t('store.viewer.open', { n: i + 1, count: pictures.length })}
                data-testid="picture-thumb"
              >
                <img src={p.thumb} alt="" width={360} height={240} loading={i < 8 ? 'eager' : 'lazy'} decoding="async" />
              </button>
            ) : (
              <div className="picture-thumb" data-testid="picture-thumb">
                <img src={p.thumb} alt={t('store.viewer.locked', { n: i + 1, count: pictures.length })} width={360} height={240} loading={i < 8 ? 'eager' : 'lazy'} decoding="async" />
                <span className="picture-lock" aria-hidden="true">
                  <Icon name="lock" size={22} />
                </span>
              </div>
            )}
          </li>
        ))}
      </ul>
      {open !== null && unlocked && <PictureViewer title={gallery.title} pictures={pictures} index={open} onIndex={setOpen} onClose={close} />}
    </div>
  );
}
