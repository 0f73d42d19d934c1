import { useEffect, useMemo, useRef, useState } from 'react';
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
  const [preview, setPreview] = useState<GeoPreviewAnswer | 'loading' | 'failed' | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const rulesRef = useRef<HTMLUListElement>(null);
  // Where the focus goes once the saved rules are on screen (the button pressed may be gone).
  const focusNext = useRef<(() => void) | null>(null);
  useEffect(() => {
    focusNext.current?.();
    focusNext.current = null;
  }, [codes]);

  const load = () => {
    setFailed(false);
    api()
      .get<GeoRulesAnswer>('studio/geo')
      .then((r) => setCodes(r.codes))
      .catch(() => setFailed(true));
  };
  useEffect(load, []);

  /** Saves the rules; `focusAfter` keeps keyboard focus in the card when the button pressed goes away. */
  const save = async (next: string[], focusAfter?: () => void) => {
    setBusy(true);
    setSaveError(null);
    try {
      setCodes((await api().put<GeoRulesAnswer>('studio/geo', { codes: next })).codes);
      // The preview of the chosen place follows the new rules.
      if (place) void showPreview(place);
      else setPreview(null);
      focusNext.current = focusAfter ?? null;
    } catch {
      setSaveError(t('studio.geo.saveError'));
    } finally {
      setBusy(false);
    }
  };
  const focusSearch = () => searchRef.current?.focus();
  /** After an unblock: the rule that took its place (or the last one), else the search. */
  const focusRule = (index: number) => () => {
    const buttons = rulesRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
    (buttons[Math.min(index, buttons.length - 1)] ?? searchRef.current)?.focus();
  };

  // Only the answer for the place chosen last is shown (typing in the list picks several on the way).
  const wanted = useRef('');
  const showPreview = async (code: string) => {
    wanted.current = code;
    setPlace(code);
    setPreview(code ? 'loading' : null);
    if (!code) return;
    try {
      const answer = await api().get<GeoPreviewAnswer>('studio/geo/preview', { place: code });
      if (wanted.current === code) setPreview(answer);
    } catch {
      if (wanted.current === code) setPreview('failed');
    }
  };

  if (codes === null) {
    return (
      <section className="studio-card studio-geo" data-testid="studio-geo" aria-busy={!failed}>
        <h2>{t('studio.geo.title')}</h2>
        <p className="muted small" role={failed ? 'alert' : 'status'}>
          {t(failed ? 'studio.geo.loadError' : 'studio.geo.loading')}{' '}
          {failed && (
            <button type="button" className="btn btn-text btn-small" onClick={load} data-action="geo-retry">
              {t('studio.geo.retry')}
            </button>
          )}
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
        <ul className="studio-geo-rules" data-testid="studio-geo-rules" ref={rulesRef}>
          {codes.map((code, i) => (
            <li key={code} data-code={code}>
              <span>{nameOf(code)}</span>{' '}
              <button type="button" className="btn btn-outline btn-small" disabled={busy} onClick={() => void save(codes.filter((c) => c !== code), focusRule(i))} aria-label={t('studio.geo.remove', { place: nameOf(code) })} data-action="geo-unblock">
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor="studio-geo-search">{t('studio.geo.search')}</label>
        <div className="field-control">
          <input ref={searchRef} id="studio-geo-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} aria-describedby="studio-geo-search-hint" autoComplete="off" data-testid="studio-geo-search" />
        </div>
        <p id="studio-geo-search-hint" className="field-hint">
          {t('studio.geo.searchHint')}
        </p>
      </div>
      {folded && matches.length === 0 && (
        <p className="muted small" role="status">
          {t('studio.geo.noMatch')}
        </p>
      )}
      {matches.length > 0 && (
        <ul className="studio-geo-matches" data-testid="studio-geo-matches">
          {matches.slice(0, SHOWN).map((p) => (
            <li key={p.code} data-code={p.code}>
              <span>{p.name}</span>{' '}
              {codes.includes(p.code) ? (
                <span className="muted small">{t('studio.geo.blocked')}</span>
              ) : (
                <button type="button" className="btn btn-outline btn-small" disabled={busy} onClick={() => void save([...codes, p.code], focusSearch)} data-action="geo-block" aria-label={t('studio.geo.block', { place: p.name })}>
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
      <div className="field">
        <label htmlFor="studio-geo-place">{t('studio.geo.previewPlace')}</label>
        <div className="field-control">
          <select id="studio-geo-place" value={place} onChange={(e) => void showPreview(e.target.value)} data-testid="studio-geo-place">
            <option value="">{t('studio.geo.previewPick')}</option>
            {places.map((p) => (
              <option key={p.code} value={p.code}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {(preview === 'loading' || preview === 'failed') && (
        <p className={preview === 'failed' ? 'form-error small' : 'muted small'} role={preview === 'failed' ? 'alert' : 'status'} data-testid="studio-geo-preview-state">
          {t(preview === 'failed' ? 'studio.geo.previewError' : 'studio.geo.previewLoading')}
        </p>
      )}
      {preview && preview !== 'loading' && preview !== 'failed' && (
        <p className={preview.blocked ? 'small studio-geo-preview blocked' : 'small studio-geo-preview'} role="status" data-testid="studio-geo-preview" data-blocked={preview.blocked ? '1' : '0'}>
          {preview.blocked ? t('studio.geo.previewBlocked', { place: nameOf(preview.place), by: nameOf(preview.by ?? '') }) : t('studio.geo.previewVisible', { place: nameOf(preview.place) })}
        </p>
      )}
    </section>
  );
}
