import { couponCoins, couponValid } from '../../../shared/coupons';
import { credit } from '../../lib/ledger.repo';
import { findPublicCoupon, redeemStatement, type CouponRow } from './coupons.repo';

/** A voucher that may be redeemed now by its code, or null. */
export async function findValidCoupon(db: D1Database, code: string, now: number): Promise<CouponRow | null> {
  const row = await findPublicCoupon(db, code);
  return row && couponValid(row, now) ? row : null;
}

/** A voucher given at sign-up: coin vouchers pay out at once, others wait in the member's coupons. */
export async function applySignupVoucher(db: D1Database, userId: number, code: string, now: number): Promise<void> {
  const coupon = await findValidCoupon(db, code, now);
  if (!coupon) return;
  const coins = couponCoins(coupon);
  if (coins === null) await redeemStatement(db, userId, coupon.code, now, null, true).run();
  else await credit(db, userId, coins, 'signup', `coupon:${coupon.code.toUpperCase()}:${userId}`, [redeemStatement(db, userId, coupon.code, now, now, true)]);
}
