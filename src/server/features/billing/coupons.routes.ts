import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { couponCheckSchema } from '../../../shared/accounts';
import { couponCoins, couponNeverExpires, couponShownMoney, couponValid, couponValueText, isPrize, prizeDaysShown, type CouponType } from '../../../shared/coupons';
import type { AppEnv } from '../../env';
import { nowSeconds, requireUser, requireUserId } from '../session/session.service';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { announceCoins } from './billing.service';
import { credit } from './ledger';

interface CouponRow {
  code: string;
  type: CouponType;
  value: number;
  currency: string;
  valid_until: number;
  redeemed_at: number | null;
  used_at: number | null;
  signup_only?: number;
}

/** A coupon on the wire with the rules of spec part 1 section 3 applied. */
function describe(c: CouponRow, now: number) {
  return {
    code: c.code,
    type: c.type,
    value: c.value,
    currency: c.currency,
    valid_until: c.valid_until,
    no_expiry: couponNeverExpires(c),
    valid: couponValid(c, now) && c.used_at === null,
    text: couponValueText(c),
    money: couponShownMoney(c),
    coins: couponCoins(c),
    prize: isPrize(c),
    days_left: prizeDaysShown(c, now),
    redeemed_at: c.redeemed_at,
    used: c.used_at !== null,
  };
}

async function findCoupon(db: D1Database, code: string) {
  return db
    .prepare('SELECT code, type, value, currency, valid_until, signup_only, NULL AS redeemed_at, NULL AS used_at FROM coupons WHERE code = ? AND granted_only = 0')
    .bind(code)
    .first<CouponRow>();
}

export const couponRoutes = new Hono<AppEnv>()
  // "ok" means the code is a valid voucher (the spec's ruf/stream check).
  .post('/ruf/stream', zValidator('json', couponCheckSchema, validationHook), async (c) => {
    const coupon = await findCoupon(c.env.DB, c.req.valid('json').code);
    if (!coupon || !couponValid(coupon, nowSeconds())) throw new ApiError(422, 'coupon_invalid', { code: ['coupon_invalid'] });
    return c.text('ok');
  })
  .use('/coupons', requireUser)
  .use('/coupons/*', requireUser)
  .get('/coupons', async (c) => {
    const userId = requireUserId(c);
    const { results } = await c.env.DB.prepare(
      `SELECT c.code, c.type, c.value, c.currency, c.valid_until, uc.redeemed_at, uc.used_at
       FROM user_coupons uc JOIN coupons c ON c.code = uc.code WHERE uc.user_id = ? ORDER BY uc.redeemed_at DESC`,
    )
      .bind(userId)
      .all<CouponRow>();
    const now = nowSeconds();
    return c.json({ data: results.map((r) => describe(r, now)) });
  })
  .post('/coupons/redeem', zValidator('json', couponCheckSchema, validationHook), async (c) => {
    const userId = requireUserId(c);
    const db = c.env.DB;
    const now = nowSeconds();
    const coupon = await findCoupon(db, c.req.valid('json').code);
    if (!coupon || !couponValid(coupon, now)) throw new ApiError(422, 'coupon_invalid', { code: ['coupon_invalid'] });
    // Sign-up vouchers pay out only with a new account (register with code).
    if (coupon.signup_only) throw new ApiError(422, 'coupon_signup_only', { code: ['coupon_signup_only'] });
    const record = db.prepare('INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) VALUES (?, ?, ?, ?)');
    const coins = couponCoins(coupon);
    if (coins !== null) {
      // Coin vouchers pay out at once: the redemption row and the ledger row share one batch.
      const result = await credit(db, userId, coins, 'coupon', `coupon:${coupon.code.toUpperCase()}:${userId}`, [record.bind(userId, coupon.code, now, now)]);
      if (!result.ok) throw new ApiError(409, 'coupon_redeemed');
      c.executionCtx.waitUntil(announceCoins(c.env, userId, result.coins));
      return c.json({ coupon: describe({ ...coupon, redeemed_at: now, used_at: now }, now), user: { coins: result.coins } });
    }
    try {
      await record.bind(userId, coupon.code, now, null).run();
    } catch {
      throw new ApiError(409, 'coupon_redeemed');
    }
    return c.json({ coupon: describe({ ...coupon, redeemed_at: now, used_at: null }, now) });
  });
