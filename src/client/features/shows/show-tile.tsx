import { showImageSrc } from '../../../shared/shows';
import { memo } from 'react';
import { useSnap, useT } from '../../state/context';
import { liveOnline } from '../../state/live';
import { formatKm, showLink, type TileLinks, type TileShow } from '../../../shared/show-lists';
import { FavoriteToggle } from '../favorites/favorite-button';

interface TileProps {
  show: TileShow;
  href: string;
  eager: boolean;
  first: boolean;
  online: boolean;
  /** The member's mark for this show; null for a visitor (no heart). */
  fav: boolean | null;
  locale: string;
}

/**
 * A show in a list: preview, name, age, online state, languages, price, location, features,
 * rating, ribbon, and the distance in a location search. Pure: the grid reads the store once for
 * all tiles (online state from the live lobby, the member's marks), and a tile renders again only
 * when its own values change.
 */
const ShowTile = memo(function ShowTile({ show, href, eager, first, online, fav, locale }: TileProps) {
  const t = useT();
  return (
    <article className={online ? 'show-tile online' : 'show-tile'} data-show-id={show.id} data-online={online ? '1' : '0'}>
      <a href={href} className="tile-link">
        <div className="tile-media">
          <img
            src={showImageSrc(show.id, 1)}
            alt={t('shows.previewAlt', { name: show.name })}
            width={400}
            height={300}
            loading={eager ? 'eager' : 'lazy'}
            // The first tile's picture is the page's largest paint on a phone: fetched first.
            fetchPriority={first ? 'high' : undefined}
            decoding={first ? undefined : 'async'}
          />
          {show.ribbon && <span className={`ribbon ribbon-${show.ribbon}`}>{t(`shows.ribbon.${show.ribbon}`)}</span>}
          <span className={online ? 'status online' : 'status offline'}>
            {online ? t('shows.online') : t('shows.offline')}
          </span>
          {show.free && <span className="free-badge">{t('shows.free')}</span>}
        </div>
        <div className="tile-body">
          <div className="tile-title">
            <h3>{show.name}</h3>
            <span className="age">{show.age}</span>
            <span className="langs" title={t('shows.languages')}>
              {show.languages.map((l) => (
                <span key={l} className="lang">
                  {l}
                </span>
              ))}
            </span>
          </div>
          <p className="slogan">{show.slogan}</p>
          <div className="tile-meta">
            <span className="price" title={t('shows.pricePerMinute')}>
              {t('shows.coinsPerMinute', { count: show.pricePerMinute })}
            </span>
            <span className="rating" role="img" aria-label={t('shows.rating', { rating: show.rating })}>
              {show.rating}%
            </span>
          </div>
          {typeof show.distance === 'number' && (
            <div className="tile-meta tile-distance" data-testid="distance">
              <span>{t('shows.distance', { km: formatKm(show.distance, locale), city: show.city })}</span>
            </div>
          )}
          <div className="tile-meta muted">
            <span className="location">{show.city}</span>
            <span className="features">
              {show.features.slice(0, 3).map((f) => (
                <span key={f} className="feature">
                  {t(`shows.feature.${f}`)}
                </span>
              ))}
            </span>
          </div>
        </div>
      </a>
      {fav !== null && <FavoriteToggle show={show} fav={fav} className="fav-button-tile" />}
    </article>
  );
});

/** Show tiles in a grid; `page` per show (list page it came from) feeds search links. */
export function ShowGrid({ shows, links, pages }: { shows: TileShow[]; links?: TileLinks; pages?: number[] }) {
  const snap = useSnap();
  const member = Boolean(snap.user);
  return (
    <div className="show-grid">
      {shows.map((s, i) => (
        <ShowTile
          key={s.id}
          show={s}
          href={showLink(links, s, pages?.[i])}
          eager={i < 4}
          first={i === 0}
          online={liveOnline(snap.live, s.id, s.online)}
          fav={member ? (snap.favorites.marks[s.id] ?? s.fav === true) : null}
          locale={snap.locale}
        />
      ))}
    </div>
  );
}
