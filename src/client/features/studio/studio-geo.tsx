import { useEffect, useMemo, useState } from 'react';
import { COUNTRY_CODES, REGION_CODES, type GeoPreviewAnswer, type GeoRulesAnswer } from '../../../shared/geo';
import { api } from '../../lib/api';
import { useSnap, useT } from '../../state/context';

/** How many matches the searchable list shows at once. */
const SHOWN = 12;

interface Place {
  code: string;
  name: string;
}

/** Every place the studio offers, named in the page's language (countries by Intl.DisplayNames, regions from the texts). */
function usePlaces(locale: string): Place[] {
  const t = useT();
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      names = null;
    }
    const country = (code: string) => names?.of(code) ?? code;
    const places: Place[] = COUNTRY_CODES.map((code) => ({ code, name: country(code) }));
    for (const [cc, regions] of Object.entries(REGION_CODES)) {
      for (const code of regions) places.push({ code, name: t('studio.geo.region', { region: t(`studio.geo.regions.${code}`), country: country(cc) }) });
    }
    return places.sort((a, b) => a.name.localeCompare(b.name, locale));
  }, [locale, t]);
}

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/**
 * Geo-blocking (issue 30 point 3): the countries and regions the show is hidden from, edited with
 * a searchable list (each change saved at once), and a preview of what a viewer in a place sees.
 */
export function StudioGeo() {
  const t = useT();
  const snap = useSnap();
  const places = usePlaces(snap.locale);
  const nameOf = (code: string) => places.find((p) => p.code === code)?.name ?? code;
  const [codes, setCodes] = useState<string[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [place, setPlace] = useState('');
  const [preview, setPreview] = useState<GeoPreviewAnswer | null>(null);

  useEffect(() => {
    api()
      .get<GeoRulesAnswer>('studio/geo')
      .then((r) => setCodes(r.codes))
      .catch(() => setFailed(true));
  }, []);

  const save = async (next: string[]) => {
    setBusy(true);
    setSaveError(null);
    try {
      setCodes((await api().put<GeoRulesAnswer>('studio/geo', { codes: next })).codes);
      setPreview(null);
    } catch {
      setSaveError(t('studio.geo.saveError'));
    } finally {
      setBusy(false);
    }
  };

  const showPreview = async (code: string) => {
    setPlace(code);
    setPreview(null);
    if (!code) return;
    try {
      setPreview(await api().get<GeoPreviewAnswer>('studio/geo/preview', { place: code }));
    } catch {
      setPreview(null);
    }
  };

  if (codes === null) {
    return (
      <section className="studio-card studio-geo" data-testid="studio-geo" aria-busy={!failed}>
        <h2>{t('studio.geo.title')}</h2>
        <p className="muted small" role={failed ? 'alert' : 'status'}>
          {t(failed ? 'studio.geo.loadError' : 'studio.geo.loading')}
        </p>
      </section>
    );
  }
  const folded = fold(query.trim());
  const matches = folded ? places.filter((p) => fold(p.name).includes(folded) || p.code.toLowerCase() === folded) : [];
  return (
    <section className="studio-card studio-geo" data-testid="studio-geo" data-rules={codes.join(',')} aria-busy={busy}>
      <h2>{t('studio.geo.title')}</h2>
      <p className="muted small">{t('studio.geo.lead')}</p>
      <h3 className="small">{t('studio.geo.rules')}</h3>
      {codes.length === 0 ? (
        <p className="muted small" data-testid="studio-geo-none">
          {t('studio.geo.none')}
        </p>
      ) : (
        <ul className="studio-geo-rules" data-testid="studio-geo-rules">
          {codes.map((code) => (
            <li key={code} data-code={code}>
              <span>{nameOf(code)}</span>{' '}
              <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => void save(codes.filter((c) => c !== code))} aria-label={t('studio.geo.remove', { place: nameOf(code) })} data-action="geo-unblock">
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="pf-label" htmlFor="studio-geo-search">
        {t('studio.geo.search')}
      </label>
      <input id="studio-geo-search" type="search" className="pf-input" value={query} onChange={(e) => setQuery(e.target.value)} aria-describedby="studio-geo-search-hint" autoComplete="off" data-testid="studio-geo-search" />
      <p id="studio-geo-search-hint" className="muted small">
        {t('studio.geo.searchHint')}
      </p>
      {folded && matches.length === 0 && <p className="muted small">{t('studio.geo.noMatch')}</p>}
      {matches.length > 0 && (
        <ul className="studio-geo-matches" data-testid="studio-geo-matches">
          {matches.slice(0, SHOWN).map((p) => (
            <li key={p.code} data-code={p.code}>
              <span>{p.name}</span>{' '}
              {codes.includes(p.code) ? (
                <span className="muted small">{t('studio.geo.blocked')}</span>
              ) : (
                <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => void save([...codes, p.code])} data-action="geo-block" aria-label={t('studio.geo.block', { place: p.name })}>
                  {t('studio.geo.blockShort')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {matches.length > SHOWN && <p className="muted small">{t('studio.geo.more', { count: matches.length })}</p>}
      {busy && (
        <p className="muted small" role="status">
          {t('studio.geo.saving')}
        </p>
      )}
      {saveError && (
        <p className="form-error" role="alert">
          {saveError}
        </p>
      )}
      <h3 className="small">{t('studio.geo.preview')}</h3>
      <label className="pf-label" htmlFor="studio-geo-place">
        {t('studio.geo.previewPlace')}
      </label>
      <select id="studio-geo-place" className="pf-input" value={place} onChange={(e) => void showPreview(e.target.value)} data-testid="studio-geo-place">
        <option value="">–</option>
        {places.map((p) => (
          <option key={p.code} value={p.code}>
            {p.name}
          </option>
        ))}
      </select>
      {preview && (
        <p className={preview.blocked ? 'small studio-geo-preview blocked' : 'small studio-geo-preview'} role="status" data-testid="studio-geo-preview" data-blocked={preview.blocked ? '1' : '0'}>
          {preview.blocked ? t('studio.geo.previewBlocked', { place: nameOf(preview.place), by: nameOf(preview.by ?? '') }) : t('studio.geo.previewVisible', { place: nameOf(preview.place) })}
        </p>
      )}
    </section>
  );
}
