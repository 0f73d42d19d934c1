import { showHref, showImageSrc, type ShowSummary } from '../../shared/shows';
import { useT } from '../state/context';
import { Icon } from './icon';

/** A show in a list: preview, name, age, online state, languages, price, location, features, rating, ribbon. */
export function ShowTile({ show, eager = false }: { show: ShowSummary; eager?: boolean }) {
  const t = useT();
  return (
    <article className={show.online ? 'show-tile online' : 'show-tile'} data-show-id={show.id}>
      <a href={showHref(show)} className="tile-link">
        <div className="tile-media">
          <img
            src={showImageSrc(show.id, 1)}
            alt={t('shows.previewAlt', { name: show.name })}
            width={400}
            height={300}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
          {show.ribbon && <span className={`ribbon ribbon-${show.ribbon}`}>{t(`shows.ribbon.${show.ribbon}`)}</span>}
          <span className={show.online ? 'status online' : 'status offline'}>
            <span className="dot" aria-hidden="true" />
            {show.online ? t('shows.online') : t('shows.offline')}
          </span>
          {show.flags.free && <span className="free-badge">{t('shows.free')}</span>}
        </div>
        <div className="tile-body">
          <div className="tile-title">
            <h3>{show.name}</h3>
            <span className="age">{show.age}</span>
            <span className="langs" aria-label={t('shows.languages')}>
              {show.languages.map((l) => (
                <span key={l} className="lang">
                  {l}
                </span>
              ))}
            </span>
          </div>
          <p className="slogan">{show.texts.slogan}</p>
          <div className="tile-meta">
            <span className="price" title={t('shows.pricePerMinute')}>
              <Icon name="coins" size={16} />
              {t('shows.coinsPerMinute', { count: show.pricePerMinute })}
            </span>
            <span className="rating" aria-label={t('shows.rating', { rating: show.rating })}>
              <Icon name="star" size={16} />
              {show.rating}%
            </span>
          </div>
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
    </article>
  );
}

export function ShowGrid({ shows }: { shows: ShowSummary[] }) {
  return (
    <div className="show-grid">
      {shows.map((s, i) => (
        <ShowTile key={s.id} show={s} eager={i < 8} />
      ))}
    </div>
  );
}
