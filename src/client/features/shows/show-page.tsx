import { categoryHref, type ShowDetail } from '../../../shared/shows';
import type { TFunction } from '../../../shared/translate';
import { Icon } from '../../ui/icon';
import { Island } from '../../ui/island';
import ShowGallery from './show-gallery.island';
import { showGalleriesHref, showVideosHref } from '../../../shared/store-links';
import ShowLive, { type ShowLiveProps } from './show-live.island';
import ShowFavorite from '../favorites/show-favorite.island';
import { useT } from '../../state/context';
import MessagePopup from '../messages/message-popup.island';
import ReportButtonIsland from '../reports/report-button.island';

export interface ShowNavLink {
  href: string;
  name: string;
}

/**
 * The show page: previews, name, age and live state, texts, prices (exclusive only when the mode
 * is active), features, languages, rating, location, tags, categories, media counts, the chat
 * buttons, and arrows to the previous and next show of the list it was opened from.
 */
export function ShowPage({ show, prev, next }: { show: ShowDetail; prev: ShowNavLink | null; next: ShowNavLink | null }) {
  const t = useT();
  const live: ShowLiveProps['show'] = {
    id: show.id,
    universalId: show.universalId,
    contentproviderId: show.contentproviderId,
    name: show.name,
    online: show.online,
    freemode: show.freemode,
    exclusivemode: show.exclusivemode,
    exclusiveOnly: show.exclusiveOnly,
  };
  return (
    <article className="show-page" data-show-id={show.id}>
      <ShowPrevNext prev={prev} next={next} />
      <div className="show-top">
        <div className="show-media">
          <Island name="ShowGallery" component={ShowGallery} props={{ id: show.id, name: show.name, previews: show.previews }} />
        </div>
        <div className="show-info">
          <header className="show-header">
            <div className="show-title">
              <h1>{show.name}</h1>
              <span className="show-age">{t('showPage.age', { age: show.age })}</span>
              <Island name="ShowFavorite" component={ShowFavorite} props={{ id: show.id, name: show.name, isFavorite: show.isFavorite }} members />
            </div>
            <Island name="ShowLive" component={ShowLive} props={{ part: 'status', show: live }} />
            {show.texts.slogan && <p className="show-slogan">{show.texts.slogan}</p>}
          </header>

          <section className="show-chat" aria-labelledby="show-chat-title">
            <h2 id="show-chat-title" className="sr-only">
              {t('showPage.chatTitle')}
            </h2>
            <Island name="ShowLive" component={ShowLive} props={{ part: 'actions', show: live }} />
            <Island name="MessagePopup" component={MessagePopup} props={{ showid: show.id, name: show.name }} />
          </section>

          <dl className="show-facts">
            <div>
              <dt>{t('showPage.privatePrice')}</dt>
              <dd data-testid="price-private">
                <Icon name="coins" size={16} />
                {t('shows.coinsPerMinute', { count: show.pricing.private })}
              </dd>
            </div>
            {show.exclusivemode && show.pricing.exclusive !== null && (
              <div>
                <dt>{t('showPage.exclusivePrice')}</dt>
                <dd data-testid="price-exclusive">
                  <Icon name="coins" size={16} />
                  {t('shows.coinsPerMinute', { count: show.pricing.exclusive })}
                  {show.exclusiveOnly && <span className="exclusive-only">{t('showPage.exclusiveOnly')}</span>}
                </dd>
              </div>
            )}
            <div>
              <dt>{t('showPage.rating')}</dt>
              <dd>
                <Icon name="star" size={16} />
                {show.rating}%
              </dd>
            </div>
            <div>
              <dt>{t('showPage.location')}</dt>
              <dd>{t('showPage.cityCountry', { city: show.city, country: known(t, `showPage.country.${show.country}`, show.country) })}</dd>
            </div>
            <div>
              <dt>{t('showPage.languages')}</dt>
              <dd className="show-langs">
                {show.languages.map((l) => (
                  <span key={l} className="lang-name">
                    {known(t, `showPage.language.${l}`, l)}
                  </span>
                ))}
              </dd>
            </div>
            {show.features.length > 0 && (
              <div>
                <dt>{t('showPage.features')}</dt>
                <dd className="show-features">
                  {show.features.map((f) => (
                    <span key={f} className="feature">
                      {t(`shows.feature.${f}`)}
                    </span>
                  ))}
                </dd>
              </div>
            )}
            <div>
              <dt>{t('showPage.media')}</dt>
              <dd>
                <a href={showVideosHref(show)} data-testid="count-videos">
                  {t('showPage.videos', { count: show.counts.videos })}
                </a>
                {' · '}
                <a href={showGalleriesHref(show)} data-testid="count-galleries">
                  {t('showPage.galleries', { count: show.counts.galleries })}
                </a>
              </dd>
            </div>
          </dl>
          <Island name="ReportButton" component={ReportButtonIsland} props={{ kind: 'show', targetId: String(show.id), showId: show.id }} />
        </div>
      </div>

      {show.texts.description && (
        <section className="show-section">
          <h2>{t('showPage.about', { name: show.name })}</h2>
          <p className="show-description">{show.texts.description}</p>
        </section>
      )}

      <ChipSection title={t('showPage.tags')} chips={show.tags.map((tag) => ({ key: tag.slug, name: tag.name, href: `/search/shows?tags=${encodeURIComponent(tag.slug)}`, tag: tag.slug }))} />
      <ChipSection title={t('showPage.categories')} chips={show.categories.map((cat) => ({ key: cat.id, name: cat.name, href: categoryHref(cat) }))} />
    </article>
  );
}

/** A translation, or `fallback` when the key has none (a country or language not in the locales). */
function known(t: TFunction, key: string, fallback: string): string {
  const text = t(key);
  return text === key ? fallback : text;
}

function ShowPrevNext({ prev, next }: { prev: ShowNavLink | null; next: ShowNavLink | null }) {
  const t = useT();
  if (!prev && !next) return null;
  return (
    <nav className="show-prevnext" aria-label={t('showPage.prevNext')}>
      {prev ? (
        <a className="prevnext-link prev" href={prev.href} rel="prev" data-testid="show-prev">
          <Icon name="chevronLeft" size={22} />
          <span className="prevnext-text">
            <span className="muted small">{t('showPage.previous')}</span>
            <span className="prevnext-name">{prev.name}</span>
          </span>
        </a>
      ) : (
        <span />
      )}
      {next ? (
        <a className="prevnext-link next" href={next.href} rel="next" data-testid="show-next">
          <span className="prevnext-text">
            <span className="muted small">{t('showPage.next')}</span>
            <span className="prevnext-name">{next.name}</span>
          </span>
          <Icon name="chevronRight" size={22} />
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** A section of links as chips (tags carry data-tag); nothing when there are none. */
function ChipSection({ title, chips }: { title: string; chips: { key: string | number; name: string; href: string; tag?: string }[] }) {
  if (chips.length === 0) return null;
  return (
    <section className="show-section">
      <h2>{title}</h2>
      <ul className="chip-list">
        {chips.map((c) => (
          <li key={c.key}>
            <a className="cat-chip" href={c.href} data-tag={c.tag}>
              {c.name}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
