import type { ReactNode } from 'react';
import { showHref } from '../../../shared/shows';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import type { PromoLite } from '../../../shared/show-lists';

/** Promotions of the first list page: title, show name and a link; each hidden at its stop time. */
export function PromoStrip({ promos, aside }: { promos: PromoLite[]; aside?: ReactNode }) {
  const t = useT();
  if (promos.length === 0) return null;
  return (
    <section className="promo-strip" aria-labelledby="promo-strip-title">
      <div className="promo-strip-head">
        <h2 id="promo-strip-title" className="promo-strip-title">
          <Icon name="gift" size={18} />
          {t('shows.promos.title')}
        </h2>
        {aside}
      </div>
      <ul>
        {promos.map((p) => (
          <li key={p.id} data-promo-id={p.id}>
            <a className="promo-card" href={showHref(p.show)}>
              <span className="promo-title">{p.title}</span>
              <span className="promo-show">{t('shows.promos.with', { name: p.show.name })}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
