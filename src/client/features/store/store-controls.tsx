import { useEffect, useState, type ReactNode } from 'react';
import type { CouponItem, DataAnswer } from '../../../shared/api';
import { RATING_STARS_MAX, type BuyAnswer, type RateAnswer } from '../../../shared/store';
import { useSnap, useStore, useT } from '../../state/context';
import { errorText } from '../../ui/error-text';
import { Icon } from '../../ui/icon';
import { storeCall } from './store-api';

/** The member's unused prize of this kind (VIDEO or GALLERY), from GET /api/coupons. */
export function usePrize(type: 'VIDEO' | 'GALLERY', enabled: boolean): CouponItem | null {
  const store = useStore();
  const [prize, setPrize] = useState<CouponItem | null>(null);
  useEffect(() => {
    if (!enabled || !store.user) return;
    let live = true;
    void storeCall<DataAnswer<CouponItem>>('GET', 'coupons').then((r) => {
      if (live && r.ok) setPrize((r.data.data ?? []).find((c) => c.type === type && c.valid && !c.used) ?? null);
    });
    return () => {
      live = false;
    };
  }, [enabled, type]);
  return prize;
}

interface BuyBoxProps {
  kind: 'video' | 'gallery';
  price: number;
  /** The buy call's path under /api. */
  path: string;
  onBought: (answer: BuyAnswer) => void;
}

/**
 * Buying: the price button (or the member's free-video / free-gallery prize), a login link for
 * visitors, and the refusals explained: no coins with the way to /billing, the address not
 * confirmed with the way to /verify.
 */
export function BuyBox({ kind, price, path, onBought }: BuyBoxProps) {
  const t = useT();
  const snap = useSnap();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const prize = usePrize(kind === 'video' ? 'VIDEO' : 'GALLERY', !!snap.user && price > 0);

  if (!snap.user) {
    return (
      <div className="buy-box" data-testid="buy-box">
        <p className="buy-price">{price === 0 ? t('search.free') : t('search.coins', { count: price })}</p>
        {/* The login comes back to this item. */}
        <a className="btn btn-primary" href={`/login?redirect=${encodeURIComponent(snap.path)}`} data-testid="buy-login">
          {t(price === 0 ? 'store.buy.login.free' : `store.buy.login.${kind}`)}
        </a>
      </div>
    );
  }

  const buy = async (useVoucher: boolean) => {
    setBusy(true);
    setError(null);
    const r = await storeCall<BuyAnswer>('POST', path, { use_voucher: useVoucher ? 1 : 0 });
    setBusy(false);
    if (r.ok) onBought(r.data);
    else setError(r.code);
  };

  return (
    <div className="buy-box" data-testid="buy-box">
      <button type="button" className="btn btn-primary buy-button" onClick={() => void buy(false)} disabled={busy} data-testid="buy-coins">
        <Icon name="coins" size={18} />
        {t(`store.buy.coins.${kind}`, { count: price })}
      </button>
      {prize && (
        <button type="button" className="btn btn-outline buy-button" onClick={() => void buy(true)} disabled={busy} data-testid="buy-prize">
          <Icon name="gift" size={18} />
          {t(`store.buy.prize.${kind}`)}
        </button>
      )}
      {error && (
        <div className="buy-error" role="alert" data-testid="buy-error" data-code={error}>
          <p>{errorText(t, error)}</p>
          {error === 'store.no_coins' && (
            <a className="btn btn-primary btn-small" href="/billing" data-testid="buy-topup">
              {t('store.buy.topUp')}
            </a>
          )}
          {error === 'not_verified' && (
            <a className="btn btn-outline btn-small" href="/verify">
              {t('store.buy.verify')}
            </a>
          )}
        </div>
      )}
    </div>
  );
}

interface RatingProps {
  path: string;
  rating: number;
  /** Votes so far (null: not known, only the rating is shown). */
  votes: number | null;
  mine: number | null;
}

/** Stars 1-5 as a radio group, sent at once; the item's rating follows the answer. */
export function RatingControl({ path, rating, votes, mine }: RatingProps) {
  const t = useT();
  const [state, setState] = useState({ rating, votes: votes as number | null, mine, error: null as string | null, busy: false });
  const rate = async (stars: number) => {
    setState((s) => ({ ...s, mine: stars, busy: true, error: null }));
    const r = await storeCall<RateAnswer>('POST', path, { rating: stars });
    if (r.ok) setState({ rating: r.data.rating, votes: r.data.rating_votes, mine: r.data.my_rating, error: null, busy: false });
    else setState((s) => ({ ...s, mine, busy: false, error: r.code }));
  };
  return (
    <div className="rating-control" data-testid="rating-control" data-mine={state.mine ?? ''}>
      <fieldset disabled={state.busy}>
        <legend>{t('store.rate.legend')}</legend>
        <div className="rating-stars">
          {Array.from({ length: RATING_STARS_MAX }, (_, i) => i + 1).map((n) => (
            <label key={n} className={state.mine !== null && n <= state.mine ? 'star on' : 'star'}>
              <input type="radio" name={`rate-${path}`} value={n} checked={state.mine === n} onChange={() => void rate(n)} className="sr-only" data-testid={`rate-${n}`} />
              <Icon name="star" size={28} />
              <span className="sr-only">{t('store.rate.stars', { count: n })}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted small" role="status" data-testid="rating-summary">
        {!state.votes ? t('store.rate.rating', { rating: state.rating }) : t('store.rate.summary', { rating: state.rating, count: state.votes })}
        {state.mine !== null && ` · ${t('store.rate.mine', { count: state.mine })}`}
      </p>
      {state.error && (
        <p className="form-error" role="alert">
          {errorText(t, state.error)}
        </p>
      )}
    </div>
  );
}

/** What an owner sees instead of the buy box: the "yours" badge, the purchase notice, the rating. */
export function OwnedBox({ testId, notice, rating }: { testId: string; notice: string | null; rating: ReactNode }) {
  const t = useT();
  return (
    <div className="owned-box">
      <span className="owned-badge inline" data-testid={testId}>
        <Icon name="check" size={16} />
        {t('store.yours')}
      </span>
      {notice && (
        <p className="buy-notice" role="status" data-testid="buy-notice">
          {notice}
        </p>
      )}
      {rating}
    </div>
  );
}
