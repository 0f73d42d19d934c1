import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { VOUCHER_MIN_CHARS } from '../../../shared/constants';
import type { CouponItem, DataAnswer, RedeemAnswer } from '../../../shared/api';
import { Icon } from '../../ui/icon';
import { api, ApiFailure } from '../../lib/api';
import { useSnap, useT } from '../../state/context';

type Notice = { kind: 'success' | 'error'; text: string } | null;

/** The coupons tab of the profile: redeem a code, and the member's vouchers and prizes. */
export default function CouponsPanel() {
  const t = useT();
  const snap = useSnap();
  const [items, setItems] = useState<CouponItem[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const load = useCallback(async () => {
    try {
      const res = await api().get<DataAnswer<CouponItem>>('coupons');
      setItems(Array.isArray(res?.data) ? res.data : []);
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const trimmed = code.trim();
  const tooShort = trimmed.length < VOUCHER_MIN_CHARS;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (tooShort || busy) return;
    setBusy(true);
    setNotice(null);
    try {
      // Coin vouchers credit at once; the API layer applies user.coins of the answer.
      const res = await api().post<RedeemAnswer>('coupons/redeem', { code: trimmed });
      setNotice({ kind: 'success', text: redeemedText(t, res.coupon) });
      setCode('');
      void load();
    } catch (error) {
      setNotice({ kind: 'error', text: redeemError(t, error) });
    } finally {
      setBusy(false);
    }
  };

  const locale = snap.locale;
  const date = (seconds: number) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(seconds * 1000));

  return (
    <div className="coupons-panel" data-testid="coupons-panel">
      <form className="coupons-redeem" onSubmit={submit} noValidate data-form="coupon-redeem">
        <h2>{t('coupons.redeem.title')}</h2>
        <p className="muted small">{t('coupons.redeem.lead')}</p>
        <div className="coupons-redeem-row">
          <div className="field">
            <label htmlFor="coupon-code">{t('coupons.redeem.label')}</label>
            <div className="field-control">
              <input
                id="coupon-code"
                name="code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={64}
                value={code}
                placeholder={t('coupons.redeem.placeholder')}
                aria-describedby="coupon-code-hint"
                onChange={(e) => setCode(e.target.value)}
              />
            </div>
            <p className="field-hint" id="coupon-code-hint">
              {t('coupons.redeem.hint', { count: VOUCHER_MIN_CHARS })}
            </p>
          </div>
          <button type="submit" className="btn btn-primary" disabled={tooShort || busy} data-action="coupon-redeem">
            {busy && <span className="spinner spinner-14" aria-hidden="true" />}
            {t('coupons.redeem.submit')}
          </button>
        </div>
        {notice && (
          <p className={`form-alert form-alert-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="coupon-notice" data-kind={notice.kind}>
            <Icon name={notice.kind === 'error' ? 'warning' : 'gift'} size={18} />
            <span>{notice.text}</span>
          </p>
        )}
      </form>

      <section className="coupons-list-section" aria-labelledby="coupons-list-title">
        <h2 id="coupons-list-title">{t('coupons.list.title')}</h2>
        {loadFailed ? (
          <div className="form-alert form-alert-error" role="alert">
            <Icon name="warning" size={18} />
            <span>{t('coupons.list.failed')}</span>
            <button type="button" className="btn btn-text" onClick={() => void load()}>
              {t('coupons.list.retry')}
            </button>
          </div>
        ) : items === null ? (
          <p className="coupons-loading muted" aria-busy="true">
            <span className="spinner spinner-16" aria-hidden="true" /> {t('common.loading')}
          </p>
        ) : items.length === 0 ? (
          <div className="coupons-empty" data-testid="coupons-empty">
            <Icon name="gift" size={36} />
            <p className="coupons-empty-title">{t('coupons.list.emptyTitle')}</p>
            <p className="muted">{t('coupons.list.emptyText')}</p>
          </div>
        ) : (
          <ul className="coupons-list">
            {items.map((c) => {
              const state = c.used ? 'used' : c.valid ? 'valid' : 'expired';
              return (
                <li key={c.code} className={`coupon coupon-${state}`} data-coupon={c.code} data-state={state}>
                  <div className="coupon-value">
                    <Icon name={c.prize ? (c.type === 'GALLERY' ? 'photo' : 'video') : 'gift'} size={22} />
                    <strong data-testid="coupon-text">{c.prize ? t(`coupons.prize.${c.type}`) : c.text}</strong>
                  </div>
                  <div className="coupon-body">
                    <p className="coupon-code">
                      <code>{c.code}</code>
                      {c.prize && <span className="coupon-badge coupon-badge-prize">{t('coupons.prize.badge')}</span>}
                      <span className={`coupon-badge coupon-badge-${state}`}>{t(`coupons.state.${state}`)}</span>
                    </p>
                    <p className="muted small">
                      <span data-testid="coupon-expiry">
                        {c.no_expiry
                          ? t('coupons.noExpiry')
                          : t(c.valid_until * 1000 > Date.now() ? 'coupons.validUntil' : 'coupons.expiredOn', { date: date(c.valid_until) })}
                      </span>
                      {c.type === 'EURO' && c.coins !== null && <> · {t('coupons.coinsValue', { count: c.coins })}</>}
                    </p>
                    {c.prize && c.valid && !c.used && (
                      <p className="coupon-waiting small">
                        <span data-testid="coupon-waiting">{t(`coupons.prize.waiting.${c.type}`)}</span>{' '}
                        <a href={c.type === 'GALLERY' ? '/galleries' : '/videos'} data-testid="coupon-store">
                          {t(`coupons.prize.open.${c.type}`)}
                        </a>
                      </p>
                    )}
                    {c.days_left !== null && !c.used && (
                      <p className="coupon-days" data-testid="coupon-days">
                        {t('coupons.daysLeft', { count: c.days_left })}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}

function redeemedText(t: ReturnType<typeof useT>, c: CouponItem): string {
  if (c.coins !== null && c.used) return t('coupons.redeemed.coins', { count: c.coins });
  if (c.type === 'PERCENT') return t('coupons.redeemed.percent', { percent: c.value });
  if (c.prize) return t('coupons.redeemed.prize');
  return t('coupons.redeemed.saved');
}

function redeemError(t: ReturnType<typeof useT>, error: unknown): string {
  if (!(error instanceof ApiFailure)) return t('errors.unknown_error');
  if (error.status === 0) return t('errors.network_error');
  const code = error.errors.code?.[0] ?? error.message;
  const text = t(`errors.${code}`);
  // Anything else: the generic "voucher not valid" of the billing.
  return text === `errors.${code}` || code === 'validation_failed' ? t('errors.coupon_invalid') : text;
}
