import { describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGE_RATE, PRIZE_DURATION_SHOWN_DAYS } from '../../src/shared/constants';
import { couponCoins, couponMoney, couponNeverExpires, couponShownMoney, couponValid, couponValueText, isPrize, prizeDaysShown, type CouponLike, type CouponType } from '../../src/shared/coupons';

// Coupon and prize rules of spec part 1 section 3 and part 2 section 3 (numbers of section 9).
const NOW = 1_800_000_000;
const DAY = 86_400;
const coupon = (type: CouponType, value: number, extra: Partial<CouponLike> = {}): CouponLike => ({ type, value, valid_until: NOW + 30 * DAY, ...extra });

describe('constants', () => {
  it('default exchange rate 0.1 euro per coin, prize duration shown at 14 days or fewer', () => {
    expect(DEFAULT_EXCHANGE_RATE).toBe(0.1);
    expect(PRIZE_DURATION_SHOWN_DAYS).toBe(14);
  });
});

describe('validity', () => {
  it('is valid while valid_until is in the future', () => {
    expect(couponValid(coupon('COINS', 50, { valid_until: NOW + 1 }), NOW)).toBe(true);
    expect(couponValid(coupon('COINS', 50, { valid_until: NOW }), NOW)).toBe(false);
    expect(couponValid(coupon('COINS', 50, { valid_until: NOW - 1 }), NOW)).toBe(false);
  });
});

describe('money value', () => {
  it('equals the value for EURO', () => {
    expect(couponMoney(coupon('EURO', 10))).toBe(10);
    expect(couponMoney(coupon('EURO', 7.5))).toBe(7.5);
  });

  it('is value x rate rounded up for COINS and FREE', () => {
    expect(couponMoney(coupon('COINS', 50))).toBe(5);
    expect(couponMoney(coupon('COINS', 51))).toBe(6);
    expect(couponMoney(coupon('COINS', 1))).toBe(1);
    expect(couponMoney(coupon('FREE', 100))).toBe(10);
    expect(couponMoney(coupon('FREE', 95))).toBe(10);
    // Floating point must not push an exact product up: 30 x 0.1 is 3, not 4.
    expect(couponMoney(coupon('COINS', 30))).toBe(3);
    expect(couponMoney(coupon('COINS', 70))).toBe(7);
  });

  it('uses a given exchange rate', () => {
    expect(couponMoney(coupon('COINS', 50, { exchangeRate: 0.25 }))).toBe(13);
    expect(couponMoney(coupon('FREE', 10, { exchangeRate: 0.5 }))).toBe(5);
  });

  it('has none for PERCENT and prizes', () => {
    for (const type of ['PERCENT', 'VIDEO', 'GALLERY'] as const) expect(couponMoney(coupon(type, 50))).toBeNull();
  });
});

describe('coins', () => {
  it('are value / rate rounded up for EURO', () => {
    expect(couponCoins(coupon('EURO', 10))).toBe(100);
    expect(couponCoins(coupon('EURO', 0.3))).toBe(3);
    expect(couponCoins(coupon('EURO', 0.25))).toBe(3);
    expect(couponCoins(coupon('EURO', 10, { exchangeRate: 0.3 }))).toBe(34);
  });

  it('are the value for COINS and FREE, none for the others', () => {
    expect(couponCoins(coupon('COINS', 50))).toBe(50);
    expect(couponCoins(coupon('FREE', 20))).toBe(20);
    for (const type of ['PERCENT', 'VIDEO', 'GALLERY'] as const) expect(couponCoins(coupon(type, 5))).toBeNull();
  });

  it('BONUS10 (EURO 10) is worth 100 coins, WELCOME50 (COINS 50) 50 coins and 5 EUR', () => {
    expect(couponCoins(coupon('EURO', 10))).toBe(100);
    expect(couponCoins(coupon('COINS', 50))).toBe(50);
    expect(couponMoney(coupon('COINS', 50))).toBe(5);
  });
});

describe('value text', () => {
  it("reads 'N Coins', 'N EUR' or 'N%'", () => {
    expect(couponValueText({ type: 'COINS', value: 50 })).toBe('50 Coins');
    expect(couponValueText({ type: 'FREE', value: 20 })).toBe('20 Coins');
    expect(couponValueText({ type: 'EURO', value: 10 })).toBe('10 EUR');
    expect(couponValueText({ type: 'PERCENT', value: 50 })).toBe('50%');
  });
});

describe('prizes', () => {
  it('are VIDEO and GALLERY only', () => {
    expect(isPrize({ type: 'VIDEO' })).toBe(true);
    expect(isPrize({ type: 'GALLERY' })).toBe(true);
    for (const type of ['COINS', 'EURO', 'PERCENT', 'FREE'] as const) expect(isPrize({ type })).toBe(false);
  });

  it('show the remaining days at 14 or fewer, not above', () => {
    expect(prizeDaysShown(coupon('VIDEO', 1, { valid_until: NOW + 14 * DAY }), NOW)).toBe(14);
    expect(prizeDaysShown(coupon('GALLERY', 1, { valid_until: NOW + 3 * DAY }), NOW)).toBe(3);
    expect(prizeDaysShown(coupon('VIDEO', 1, { valid_until: NOW + 2 * DAY + 3600 }), NOW)).toBe(3);
    expect(prizeDaysShown(coupon('VIDEO', 1, { valid_until: NOW + 14 * DAY + 1 }), NOW)).toBeNull();
    expect(prizeDaysShown(coupon('GALLERY', 1, { valid_until: NOW + 30 * DAY }), NOW)).toBeNull();
  });

  it('show nothing once expired, and never for other types', () => {
    expect(prizeDaysShown(coupon('VIDEO', 1, { valid_until: NOW - DAY }), NOW)).toBeNull();
    expect(prizeDaysShown(coupon('COINS', 50, { valid_until: NOW + DAY }), NOW)).toBeNull();
    expect(prizeDaysShown(coupon('PERCENT', 50, { valid_until: NOW + DAY }), NOW)).toBeNull();
  });

  it('shows no euro worth for a coin voucher (a 25-coin voucher is not "worth 3.00 EUR"); a euro voucher keeps its value', () => {
    expect(couponShownMoney(coupon('COINS', 25))).toBeNull();
    expect(couponShownMoney(coupon('FREE', 100))).toBeNull();
    expect(couponShownMoney(coupon('EURO', 10))).toBe(10);
    for (const type of ['PERCENT', 'VIDEO', 'GALLERY'] as const) expect(couponShownMoney(coupon(type, 50))).toBeNull();
  });

  it('a valid_until in 2100 or later means no expiry', () => {
    expect(couponNeverExpires({ valid_until: 4102444800 })).toBe(true);
    expect(couponNeverExpires({ valid_until: 4102444799 })).toBe(false);
    expect(couponNeverExpires({ valid_until: 1767225600 })).toBe(false);
  });
});
