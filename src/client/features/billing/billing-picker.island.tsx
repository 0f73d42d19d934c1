import { useCallback, useEffect, useState } from 'react';
import type { BillingList, PaymentType } from '../../../shared/billing';
import { bonusCoins, defaultProduct, firstType, formatMoney } from './billing-data';
import { Icon } from '../../ui/icon';
import { PickerLoading, PickerUnavailable } from './picker-states';
import { PaymentTabs, ProductCards } from './picker-choices';
import { api } from '../../lib/api';
import { BILLING_POPUP_NAME, BILLING_SUCCESS_EVENT, openBillingPopup, rememberPreviousRoute, transferUrl } from './billing-popup';
import { useSnap, useT } from '../../state/context';

export interface BillingPickerProps {
  /** A voucher code from /billing/f/{code}: previews its bonus and goes with the purchase. */
  code: string | null;
  /** Opened from the pay-by-phone menu item: the phone payment type comes first. */
  voicecall: boolean;
  /** The list rendered by the server (visitors paying by phone); null: fetched here. */
  initial: BillingList | null;
}

type Phase = 'loading' | 'ready' | 'unavailable';

/** Payment types as tabs, products as cards, the daily limit, and the buy button (popup). */
export default function BillingPicker({ code, voicecall, initial }: BillingPickerProps) {
  const t = useT();
  const snap = useSnap();
  const [phase, setPhase] = useState<Phase>(initial ? 'ready' : 'loading');
  const [list, setList] = useState<BillingList | null>(initial);
  const [typeId, setTypeId] = useState<number | null>(() => firstType(initial, voicecall)?.id ?? null);
  const [productIds, setProductIds] = useState<Record<number, number>>({});
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);

  const load = useCallback(
    async (keepSelection: boolean) => {
      if (initial) return;
      if (!keepSelection) setPhase('loading');
      try {
        const res = await api().get<BillingList>('billing', code ? { code } : undefined);
        setList(res);
        setPhase('ready');
        // The first payment type is selected once the list is there.
        setTypeId((current) => (keepSelection && res.paymentTypes.some((p) => p.id === current) ? current : (firstType(res, voicecall)?.id ?? null)));
      } catch {
        // Any failure of the list is "service unavailable" (503) with a retry.
        if (!keepSelection) setPhase('unavailable');
      }
    },
    [code, initial, voicecall],
  );

  useEffect(() => {
    rememberPreviousRoute();
    void load(false);
  }, [load]);

  // After a payment the daily limit (and a used campaign) changed.
  useEffect(() => {
    const onSuccess = () => void load(true);
    window.addEventListener(BILLING_SUCCESS_EVENT, onSuccess);
    return () => window.removeEventListener(BILLING_SUCCESS_EVENT, onSuccess);
  }, [load]);

  if (phase === 'loading') return <PickerLoading />;
  if (phase === 'unavailable' || !list) return <PickerUnavailable onRetry={() => void load(false)} />;

  const types = list.paymentTypes;
  const type = types.find((p) => p.id === typeId) ?? types[0];
  const product = type ? (type.products.find((p) => p.id === productIds[type.id]) ?? defaultProduct(type)) : null;
  const campaign = type?.isPhoneCall ? null : list.campaign;
  // The welcome offer applies to coin packages; what is shown here is what the purchase credits.
  const welcome = type?.isPhoneCall ? null : (list.welcome ?? null);
  const total = (coins: number) => coins + bonusCoins(coins, campaign) + bonusCoins(coins, welcome);
  const clock = (seconds: number) => new Intl.DateTimeFormat(snap.locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(seconds * 1000));
  const remaining = list.limit?.remaining ?? Infinity;
  const overLimit = (amount: number) => amount > remaining;
  const codeIgnored = !!code && (!list.campaign || list.campaign.code.toUpperCase() !== code.toUpperCase());
  const locale = snap.locale;
  const pending = snap.voicecallCheck.mode === 'pending';

  const select = (next: PaymentType) => {
    setTypeId(next.id);
    setBlockedUrl(null);
  };

  const buy = () => {
    if (!type || !product || overLimit(product.amount)) return;
    const url = transferUrl({
      paymentTypeId: type.id,
      productId: product.id,
      paymentTypeName: type.name,
      code: campaign ? (code ?? campaign.code) : null,
    });
    setBlockedUrl(openBillingPopup(url) ? null : url);
  };

  return (
    <div className="billing-picker" data-state="ready" data-testid="billing-picker">
      {snap.user && (
        <p className="billing-balance">
          <Icon name="coins" size={20} />
          <span>{t('billing.balance', { count: snap.user.coins })}</span>
        </p>
      )}

      {campaign && (
        <div className="billing-campaign" role="status" data-testid="billing-campaign">
          <Icon name="gift" size={22} />
          <span>{t('billing.campaign', { code: campaign.code, percent: campaign.percent })}</span>
        </div>
      )}
      {welcome && (
        <div className="billing-campaign billing-welcome" role="status" data-testid="billing-welcome">
          <Icon name="gift" size={22} />
          <span>
            {t('billing.welcome', { percent: welcome.percent, time: clock(welcome.until) })} · {t('billing.welcomeVideo')}
          </span>
        </div>
      )}
      {codeIgnored && !type?.isPhoneCall && (
        <p className="form-alert form-alert-info" role="status" data-testid="billing-code-ignored">
          <Icon name="warning" size={18} />
          <span>{t('billing.codeNotApplied', { code })}</span>
        </p>
      )}

      {types.length > 1 && (
        <>
          <h2 className="billing-step">{t('billing.paymentMethod')}</h2>
          <PaymentTabs types={types} active={type} onSelect={select} />
        </>
      )}

      <div id="billing-products" role={types.length > 1 ? 'tabpanel' : undefined} aria-labelledby={type && types.length > 1 ? `billing-type-${type.id}` : undefined}>
        <h2 className="billing-step">{t('billing.package')}</h2>
        {!type || type.products.length === 0 ? (
          <p className="muted">{t('billing.noProducts')}</p>
        ) : (
          <ProductCards
            type={type}
            selected={product}
            campaign={campaign}
            welcome={welcome}
            overLimit={overLimit}
            onPick={(id) => {
              setProductIds((m) => ({ ...m, [type.id]: id }));
              setBlockedUrl(null);
            }}
          />
        )}
      </div>

      {(list.owed ?? 0) > 0 && (
        <div className="form-alert form-alert-error" role="alert" data-testid="billing-owed">
          <Icon name="warning" size={18} />
          <span>{t('billing.owed', { coins: list.owed })}</span>
        </div>
      )}
      {list.limit && (
        <p className="billing-limit muted" data-testid="billing-limit">
          {t('billing.limit', {
            daily: formatMoney(list.limit.daily, list.limit.currency, locale),
            remaining: formatMoney(list.limit.remaining, list.limit.currency, locale),
          })}
        </p>
      )}

      {blockedUrl && (
        <div className="form-alert form-alert-error billing-blocked" role="alert" data-testid="billing-popup-blocked">
          <Icon name="warning" size={18} />
          <span>
            {t('billing.popupBlocked')}{' '}
            <a
              href={blockedUrl}
              target={BILLING_POPUP_NAME}
              data-action="billing-open-popup"
              onClick={(e) => {
                if (openBillingPopup(blockedUrl)) {
                  e.preventDefault();
                  setBlockedUrl(null);
                }
              }}
            >
              {t('billing.popupOpen')}
            </a>
          </span>
        </div>
      )}

      {type?.isPhoneCall && pending && (
        <p className="billing-pending" role="status" data-testid="voicecall-pending">
          <span className="spinner spinner-16" aria-hidden="true" />
          {t('voicecall.pending')}
        </p>
      )}

      <div className="billing-actions">
        {type?.isPhoneCall && !snap.user ? (
          // Coins need an account: visitors see what the call costs and gives, then log in.
          <>
            <p className="billing-phone-login" data-testid="billing-phone-login">
              {t('billing.phoneLogin')}
            </p>
            <a className="btn btn-primary btn-wide" href={`/login?redirect=${encodeURIComponent('/billing?voicecall=1')}`} data-action="billing-phone-login">
              {t('nav.login')}
            </a>
            <a className="btn btn-outline btn-wide" href="/users/signup">
              {t('nav.signup')}
            </a>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-primary btn-wide billing-buy"
            data-action="billing-buy"
            disabled={!product || overLimit(product.amount)}
            onClick={buy}
          >
            {type?.isPhoneCall ? <Icon name="phone" size={20} /> : <Icon name="coins" size={20} />}
            {product
              ? t(type?.isPhoneCall ? 'billing.callNow' : 'billing.buy', {
                  coins: total(product.coins),
                  price: formatMoney(product.amount, product.currency, locale),
                })
              : t('billing.choosePackage')}
          </button>
        )}
        <p className="billing-hint muted small" data-testid="billing-hint">
          {t(type?.isPhoneCall ? 'billing.phoneHint' : 'billing.popupHint', { price: product ? formatMoney(product.amount, product.currency, locale) : '' })}
        </p>
      </div>
    </div>
  );
}
