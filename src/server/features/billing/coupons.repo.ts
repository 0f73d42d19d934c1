import type { CouponType } from '../../../shared/coupons';

export interface CouponRow {
  code: string;
  type: CouponType;
  value: number;
  currency: string;
  valid_until: number;
  redeemed_at: number | null;
  used_at: number | null;
  signup_only?: number;
}

/** A voucher anyone may redeem by its code (granted-only prizes are not). */
export function findPublicCoupon(db: D1Database, code: string) {
  return db
    .prepare('SELECT code, type, value, currency, valid_until, signup_only, NULL AS redeemed_at, NULL AS used_at FROM coupons WHERE code = ? AND granted_only = 0')
    .bind(code)
    .first<CouponRow>();
}

/** The member's coupons, newest redemption first. */
export async function listMemberCoupons(db: D1Database, userId: number): Promise<CouponRow[]> {
  const { results } = await db
    .prepare(
      `SELECT c.code, c.type, c.value, c.currency, c.valid_until, uc.redeemed_at, uc.used_at
       FROM user_coupons uc JOIN coupons c ON c.code = uc.code WHERE uc.user_id = ? ORDER BY uc.redeemed_at DESC`,
    )
    .bind(userId)
    .all<CouponRow>();
  return results;
}

/** A redemption row; `usedAt` is set at once for coin vouchers, which pay out on redemption. */
export function redeemStatement(db: D1Database, userId: number, code: string, now: number, usedAt: number | null, ignoreDuplicate = false) {
  return db
    .prepare(
      ignoreDuplicate
        ? 'INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'
        : 'INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) VALUES (?, ?, ?, ?)',
    )
    .bind(userId, code, now, usedAt);
}
