import { useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { BREAKPOINTS } from '../../../shared/constants';
import { useStore, useT } from '../../state/context';
import { useModal } from '../../ui/use-modal';
import { closeLeft, closeRating, saveRating } from './chat-actions';

/** Catalogue codes with their own text; any other code shows its translation or itself. */
const KNOWN = new Set([
  'chat.show_paused',
  'chat.show_not_available',
  'chat.show_not_available_private',
  'chat.show_not_available_exclusive_in_use',
  'chat.show_not_available_free',
  'chat.show_not_available_exclusive',
  'chat.show_not_available_voyeur',
  'chat.free_expired',
  'chat.no_coins',
  'chat.no_avs',
  'chat.invalid_session_type',
  'chat.banned',
  'SESSION_ERR_UNEXPECTED',
]);

export function alertKey(code: string): string {
  if (!KNOWN.has(code)) return 'other';
  if (code === 'chat.show_not_available_exclusive_in_use') return 'show_not_available_private';
  if (code === 'chat.invalid_session_type' || code === 'SESSION_ERR_UNEXPECTED') return 'unknown';
  return code.replace(/^chat\./, '');
}

/** The chat alert (520 px wide): why a chat could not start, with the way on where there is one. */
export function ChatAlertDialog({ code, onClose }: { code: string; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  useModal(true, { rootRef, initialFocusRef: okRef, onEscape: onClose });
  const key = alertKey(code);
  const translated = t(`errors.${code}`);
  const text = key === 'other' ? (translated !== `errors.${code}` ? translated : t('chat.alert.other.text', { code })) : t(`chat.alert.${key}.text`);
  const target = typeof location === 'undefined' ? '/' : location.pathname;
  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog chat-alert" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} data-testid="chat-alert" data-code={code}>
        <h2 id={`${id}-t`}>{t(`chat.alert.${key}.title`)}</h2>
        <p id={`${id}-d`}>{text}</p>
        <div className="dialog-actions">
          {key === 'no_coins' && (
            <a className="btn btn-primary" href="/billing" data-testid="chat-alert-billing">
              {t('chat.buyCoins')}
            </a>
          )}
          {key === 'no_avs' && (
            <a className="btn btn-primary" href={`/avs?kjm=1&target=${encodeURIComponent(target)}`}>
              {t('chat.alert.no_avs.action')}
            </a>
          )}
          <button ref={okRef} type="button" className={key === 'no_coins' || key === 'no_avs' ? 'btn btn-text' : 'btn btn-primary'} onClick={onClose}>
            {t('common.ok')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Back after leaving a paid chat: it ended with the page, and this is what it cost. */
export function LeftChatDialog() {
  const t = useT();
  const id = useId();
  const c = useSnapshot(useStore().chat);
  const okRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  useModal(true, { rootRef, initialFocusRef: okRef, onEscape: closeLeft });
  const left = c.left;
  if (!left) return null;
  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && closeLeft()}>
      <div className="dialog chat-alert" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} data-testid="chat-left">
        <h2 id={`${id}-t`}>{t('chat.abandoned.title')}</h2>
        <p id={`${id}-d`}>{t('chat.abandoned.text', { name: left.name, type: t(`chat.type.${left.type}`), count: left.minutes, coins: left.coins })}</p>
        <div className="dialog-actions">
          <button ref={okRef} type="button" className="btn btn-primary" onClick={closeLeft}>
            {t('chat.abandoned.ok')}
          </button>
        </div>
      </div>
    </div>
  );
}

function useExtraSmall(): boolean {
  const [xs, setXs] = useState(false);
  useEffect(() => {
    const mq = matchMedia(`(max-width: ${BREAKPOINTS.sm - 0.02}px)`);
    const set = () => setXs(mq.matches);
    set();
    mq.addEventListener('change', set);
    return () => mq.removeEventListener('change', set);
  }, []);
  return xs;
}

/** Stars on a scale of 5 (phones) or 10, sent as percent. */
export function ratingPercent(value: number, scale: number): number {
  return Math.round((Math.min(Math.max(value, 0), scale) / scale) * 100);
}

/** After a private or exclusive chat: rate it (save disabled until a rating and while saving), then thanks. */
export function RatingDialog() {
  const t = useT();
  const id = useId();
  const r = useSnapshot(useStore().chat).rating;
  const scale = useExtraSmall() ? 5 : 10;
  const [value, setValue] = useState(0);
  const [comment, setComment] = useState('');
  const rootRef = useRef<HTMLDivElement>(null);
  useModal(!!r, { rootRef, onEscape: closeRating });
  useEffect(() => setValue(0), [scale]);
  if (!r) return null;
  const saving = r.phase === 'saving';
  return (
    <div ref={rootRef} className="modal-backdrop">
      <div className="dialog chat-rating" role="dialog" aria-modal="true" aria-labelledby={`${id}-t`} data-testid="rating-dialog" data-scale={scale} data-phase={r.phase}>
        {r.phase === 'thanks' ? (
          <>
            <h2 id={`${id}-t`}>{t('chat.rating.thanksTitle')}</h2>
            <p data-testid="rating-thanks">{t('chat.rating.thanks', { name: r.showName })}</p>
            <div className="dialog-actions">
              <button type="button" className="btn btn-primary" onClick={closeRating} autoFocus>
                {t('common.close')}
              </button>
            </div>
          </>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void saveRating(ratingPercent(value, scale), comment.trim());
            }}
          >
            <h2 id={`${id}-t`}>{t('chat.rating.title', { name: r.showName })}</h2>
            <fieldset className="rating-scale">
              <legend className="small muted">{t('chat.rating.legend', { scale })}</legend>
              <div className="rating-stars">
                {Array.from({ length: scale }, (_, i) => i + 1).map((n) => (
                  <label key={n} className={n <= value ? 'rating-star on' : 'rating-star'}>
                    <input type="radio" name="rating" value={n} checked={value === n} onChange={() => setValue(n)} className="sr-only" data-testid={`rate-${n}`} />
                    <span aria-hidden="true">★</span>
                    <span className="sr-only">{t('chat.rating.stars', { count: n, scale })}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <label className="rating-comment">
              <span className="small muted">{t('chat.rating.comment')}</span>
              <textarea value={comment} maxLength={500} rows={3} onChange={(e) => setComment(e.target.value)} data-testid="rating-comment" />
            </label>
            {r.phase === 'error' && (
              <p className="form-error small" role="alert">
                {t('chat.rating.error')}
              </p>
            )}
            <div className="dialog-actions">
              <button type="button" className="btn btn-text" onClick={closeRating}>
                {t('chat.rating.later')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={value <= 0 || saving} data-testid="rating-save">
                {saving ? t('chat.rating.saving') : t('chat.rating.save')}
              </button>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}
