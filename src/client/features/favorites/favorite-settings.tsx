import { useEffect, useRef, useState } from 'react';
import { FAVORITE_MINUTES_STEP, MINUTES_PER_DAY, shiftMinutes, type Favorite } from '../../../shared/favorites';
import { showSnackbar } from '../../state/actions';
import { useStore, useT } from '../../state/context';
import { firstError, saveFavoriteWindow } from './favorites-actions';
import { useModal } from '../../ui/use-modal';

type Mode = 'off' | 'daily' | 'timespan';

/** Minutes east of UTC of this browser now (the window is stored in UTC minutes). */
const offsetNow = () => -new Date().getTimezoneOffset();
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const STEPS = Array.from({ length: MINUTES_PER_DAY / FAVORITE_MINUTES_STEP }, (_, i) => i * FAVORITE_MINUTES_STEP);

/**
 * The notification settings of one favourite: off, all day (daily: midnight for both times) or a
 * timespan (both times required, steps of 15) picked in the browser's time zone and saved in UTC.
 */
export function FavoriteSettings({ fav, onClose }: { fav: Favorite; onClose: () => void }) {
  const store = useStore();
  const t = useT();
  const offset = offsetNow();
  const [mode, setMode] = useState<Mode>(fav.info_type ?? 'off');
  const [from, setFrom] = useState(fav.info_type === 'timespan' && fav.info_start !== null ? String(shiftMinutes(fav.info_start, offset)) : '');
  const [until, setUntil] = useState(fav.info_type === 'timespan' && fav.info_end !== null ? String(shiftMinutes(fav.info_end, offset)) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const firstRef = useRef<HTMLInputElement>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';

  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    firstRef.current?.focus();
  }, []);
  useModal(true, { rootRef, onEscape: onClose });

  const save = async () => {
    setError(null);
    // Off without a prior setting just closes (spec 4).
    if (mode === 'off' && fav.info_type === null) return onClose();
    const toUtc = (v: string) => (v === '' ? null : shiftMinutes(Number(v), -offset));
    const body =
      mode === 'off'
        ? { id: fav.id, info_start: null, info_end: null }
        : mode === 'daily'
          ? { id: fav.id, info_start: 0, info_end: 0 }
          : { id: fav.id, info_start: toUtc(from), info_end: toUtc(until) };
    if (mode === 'timespan' && (body.info_start === null || body.info_end === null)) return setError(t('errors.favorites.time_required'));
    setBusy(true);
    try {
      await saveFavoriteWindow(store, body);
      showSnackbar(store, t('favorites.saved'), { timeout: 3000 });
      onClose();
    } catch (e) {
      setError(firstError(t, e));
    } finally {
      setBusy(false);
    }
  };

  const timeSelect = (id: string, label: string, value: string, set: (v: string) => void) => (
    <label className="fav-time" htmlFor={id}>
      <span>{label}</span>
      <select id={id} value={value} onChange={(e) => set(e.target.value)} disabled={mode !== 'timespan'} data-testid={id}>
        <option value="">–</option>
        {STEPS.map((m) => (
          <option key={m} value={String(m)}>
            {hhmm(m)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog fav-settings" role="dialog" aria-modal="true" aria-labelledby="fav-settings-title" data-testid="favorite-settings">
        <h2 id="fav-settings-title">{t('favorites.dialogTitle', { name: fav.name })}</h2>
        <fieldset className="fav-modes">
          <legend>{t('favorites.mode')}</legend>
          {(['off', 'daily', 'timespan'] as const).map((m, i) => (
            <label key={m} className="fav-mode">
              <input ref={i === 0 ? firstRef : undefined} type="radio" name="fav-mode" value={m} checked={mode === m} onChange={() => setMode(m)} data-testid={`fav-mode-${m}`} />
              <span>{t(`favorites.${m}`)}</span>
            </label>
          ))}
        </fieldset>
        <div className="fav-times">
          {timeSelect('fav-from', t('favorites.from'), from, setFrom)}
          {timeSelect('fav-until', t('favorites.until'), until, setUntil)}
        </div>
        <p className="muted fav-zone">{t('favorites.timezone', { zone })}</p>
        {error && (
          <p className="form-error" role="alert" data-testid="favorite-settings-error">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn btn-text" onClick={onClose}>
            {t('favorites.cancel')}
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void save()} data-testid="favorite-settings-save">
            {t('favorites.save')}
          </button>
        </div>
      </div>
    </div>
  );
}
