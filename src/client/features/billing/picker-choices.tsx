import { useRef, type KeyboardEvent } from 'react';
import type { BillingList, BillingProduct, PaymentType } from '../../../shared/billing';
import { Icon } from '../../ui/icon';
import { useSnap, useT } from '../../state/context';
import { bonusCoins, formatMoney, labelFor } from './billing-data';

// The picker's two choices: the payment type (tabs) and the package (radio cards).

/** The payment types as tabs (arrow keys move between them). */
export function PaymentTabs({ types, active, onSelect }: { types: PaymentType[]; active: PaymentType | undefined; onSelect: (type: PaymentType) => void }) {
  const t = useT();
  const tabsRef = useRef<HTMLDivElement>(null);

  const onTabKey = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = types[(index + delta + types.length) % types.length];
    onSelect(next);
    tabsRef.current?.querySelector<HTMLButtonElement>(`[data-payment-type="${next.id}"]`)?.focus();
  };

  return (
    <div className="billing-types" role="tablist" aria-label={t('billing.paymentMethod')} ref={tabsRef}>
      {types.map((p, i) => {
        const isActive = p.id === active?.id;
        return (
          <button
            key={p.id}
            type="button"
            role="tab"
            id={`billing-type-${p.id}`}
            aria-selected={isActive}
            aria-controls="billing-products"
            tabIndex={isActive ? 0 : -1}
            className={isActive ? 'billing-type active' : 'billing-type'}
            data-payment-type={p.id}
            onClick={() => onSelect(p)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            <Icon name={p.isPhoneCall ? 'phone' : 'coins'} size={22} />
            <span>{labelFor(t, 'paymentTypes', p.id, p.name)}</span>
          </button>
        );
      })}
    </div>
  );
}

/**
 * The packages of one payment type as radio cards: coins, the bonus of a campaign or the welcome
 * offer, the price, and packages over the daily limit disabled.
 */
export function ProductCards({
  type,
  selected,
  campaign,
  welcome,
  overLimit,
  onPick,
}: {
  type: PaymentType;
  selected: BillingProduct | null;
  campaign: BillingList['campaign'];
  welcome: BillingList['welcome'];
  overLimit: (amount: number) => boolean;
  onPick: (productId: number) => void;
}) {
  const t = useT();
  const locale = useSnap().locale;
  return (
    <div className="billing-products" role="radiogroup" aria-label={t('billing.package')}>
      {type.products.map((p) => {
        const checked = p.id === selected?.id;
        const bonus = bonusCoins(p.coins, campaign);
        const welcomeBonus = bonusCoins(p.coins, welcome);
        const disabled = overLimit(p.amount);
        return (
          <label
            key={p.id}
            className={['billing-product', checked ? 'active' : '', disabled ? 'disabled' : ''].filter(Boolean).join(' ')}
            data-product={p.id}
            data-default={p.isDefault ? '1' : undefined}
          >
            <input
              type="radio"
              name={`billing-product-${type.id}`}
              value={p.id}
              checked={checked}
              disabled={disabled}
              onChange={() => onPick(p.id)}
            />
            {p.isDefault && <span className="billing-badge">{t('billing.recommended')}</span>}
            <span className="billing-product-name">{labelFor(t, 'products', p.id, p.name)}</span>
            <span className="billing-coins">
              <Icon name="coins" size={22} />
              <strong>{p.coins}</strong>
              <span className="billing-coins-unit">{t('billing.coinsUnit', { count: p.coins })}</span>
            </span>
            {bonus > 0 && (
              <span className="billing-bonus" data-testid="billing-bonus">
                {t('billing.bonus', { count: bonus })}
              </span>
            )}
            {welcomeBonus > 0 && (
              <span className="billing-bonus" data-testid="billing-welcome-bonus">
                {t('billing.welcomeBonus', { count: welcomeBonus })}
              </span>
            )}
            <span className="billing-price">
              {formatMoney(p.amount, p.currency, locale)}
              {type.isPhoneCall && <span className="billing-per-call"> {t('billing.perCall')}</span>}
            </span>
            {disabled && <span className="billing-over-limit">{t('billing.overLimit')}</span>}
          </label>
        );
      })}
    </div>
  );
}
