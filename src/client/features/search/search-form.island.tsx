import { useEffect, useState } from 'react';
import { GEOLOCATION_MAX_AGE_MS } from '../../../shared/constants';
import { Icon } from '../../ui/icon';
import { rememberSearch } from './search-history';
import { useT } from '../../state/context';

export interface SearchFormProps {
  /** Where the form goes (the current search tab). */
  action: string;
  /** Where a location search goes (the shows tab). */
  nearbyAction: string;
  term: string;
}

type GeoState = 'idle' | 'locating' | 'denied' | 'unavailable';

/**
 * The search page's form: a query search (works without script) and a location search from the
 * browser's position. A searched term goes into the search history.
 */
export default function SearchForm({ action, nearbyAction, term }: SearchFormProps) {
  const t = useT();
  const [geo, setGeo] = useState<GeoState>('idle');
  const [canLocate, setCanLocate] = useState(false);

  useEffect(() => {
    setCanLocate(typeof navigator !== 'undefined' && 'geolocation' in navigator);
    if (term && term !== '*') rememberSearch(term);
  }, [term]);

  const locate = () => {
    setGeo('locating');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        // Three decimals (about 100 m) are plenty for "near me" and keep the URL less precise.
        const lat = pos.coords.latitude.toFixed(3);
        const lon = pos.coords.longitude.toFixed(3);
        location.assign(`${nearbyAction}?lat=${lat}&lon=${lon}`);
      },
      (err) => setGeo(err.code === err.PERMISSION_DENIED ? 'denied' : 'unavailable'),
      { maximumAge: GEOLOCATION_MAX_AGE_MS, timeout: 15_000 },
    );
  };

  return (
    <div className="search-form-wrap">
      <form className="search-form" action={action} method="get" role="search" aria-label={t('search.formLabel')}>
        <label className="search-field">
          <Icon name="search" size={20} />
          <span className="sr-only">{t('search.label')}</span>
          <input type="search" name="search" defaultValue={term} placeholder={t('search.placeholder')} autoComplete="off" enterKeyHint="search" maxLength={200} />
        </label>
        <button type="submit" className="btn btn-primary">
          {t('search.submit')}
        </button>
        {canLocate && (
          <button type="button" className="btn btn-outline search-nearby" onClick={locate} disabled={geo === 'locating'} data-testid="search-nearby">
            <PinIcon />
            {geo === 'locating' ? t('search.locating') : t('search.nearby')}
          </button>
        )}
      </form>
      {(geo === 'denied' || geo === 'unavailable') && (
        <p className="search-geo-error muted small" role="alert">
          {t(geo === 'denied' ? 'search.geoDenied' : 'search.geoUnavailable')}
        </p>
      )}
    </div>
  );
}

function PinIcon() {
  return (
    <svg className="icon" width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z" />
    </svg>
  );
}
