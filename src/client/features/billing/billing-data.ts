import { percentBonus } from '../../../shared/coupons';
import type { TFunction } from '../../../shared/translate';
import { ApiFailure } from '../../lib/api';
import { errorText } from '../../ui/error-text';
import type { BillingList, BillingProduct, PaymentType } from '../../../shared/billing';

// The small rules of the coin picker: default package, bonus, money and error texts.

/** The product preselected for a payment type: the one flagged isDefault, else the first. */
export function defaultProduct(type: PaymentType | undefined): BillingProduct | null {
  if (!type || type.products.length === 0) return null;
  return type.products.find((p) => p.isDefault) ?? type.products[0];
}

/** The payment type selected first: the phone one in voice-call mode, else the first. */
export function firstType(list: BillingList | null, voicecall: boolean): PaymentType | undefined {
  if (!list) return undefined;
  return (voicecall ? list.paymentTypes.find((p) => p.isPhoneCall) : undefined) ?? list.paymentTypes[0];
}

/** Bonus coins of a percent campaign or the welcome offer, rounded as the server books them. */
export function bonusCoins(coins: number, offer: { percent: number } | null | undefined): number {
  return offer ? percentBonus(coins, offer.percent) : 0;
}

export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** A translated name for a payment type or product id, else the server's name. */
export function labelFor(t: TFunction, group: 'paymentTypes' | 'products', id: number, fallback: string): string {
  const key = `billing.${group}.${id}`;
  const text = t(key);
  return text === key ? fallback : text;
}

/** The error codes of a failed call: field errors first, else the message (network: network_error). */
export function errorCodes(error: unknown): string[] {
  if (!(error instanceof ApiFailure)) return ['billing.error'];
  if (error.status === 0) return ['network_error'];
  const fields = Object.values(error.errors ?? {}).flat().filter((c): c is string => typeof c === 'string');
  if (fields.length) return [...new Set(fields)];
  return [error.message || 'billing.error'];
}

/** Translated error texts; unknown codes become the generic billing error. */
export function errorTexts(t: TFunction, codes: readonly string[]): string[] {
  const texts = codes.map((code) => errorText(t, code, 'billing.error'));
  return texts.length ? [...new Set(texts)] : [t('errors.billing.error')];
}
