import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { couponCheckSchema } from '../../../shared/accounts';
import { couponCoins, couponNeverExpires, couponShownMoney, couponValid, couponValueText, isPrize, prizeDaysShown } from '../../../shared/coupons';
import type { AppEnv } from '../../env';
import { requireUser } from '../session/session.service';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { announceCoins } from './billing.service';
import { listMemberCoupons, redeemStatement, type CouponRow } from './coupons.repo';
import { findValidCoupon } from './coupons.service';
import { credit } from '../../lib/ledger.repo';
import type { CouponItem, DataAnswer, RedeemAnswer } from '../../../shared/api';

/** A coupon on the wire, with its validity, worth and text worked out (src/shared/coupons.ts). */
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

/** /api/ruf: "ok" means the code is a valid voucher (the spec's ruf/stream check). */
export const rufRoutes = new Hono<AppEnv>().post('/stream', zValidator('json', couponCheckSchema, validationHook), async (c) => {
  const coupon = await findValidCoupon(c.env.DB, c.req.valid('json').code, nowSeconds());
  if (!coupon) throw new ApiError(422, 'coupon_invalid', { code: ['coupon_invalid'] });
  return c.text('ok');
});

/** /api/coupons */
export const couponRoutes = new Hono<AppEnv>()
  .use('/', requireUser)
  .use('/*', requireUser)
  .get('/', async (c) => {
    const userId = c.var.member.id;
    const results = await listMemberCoupons(c.env.DB, userId);
    const now = nowSeconds();
    return c.json<DataAnswer<CouponItem>>({ data: results.map((r) => describe(r, now)) });
  })
  .post('/redeem', zValidator('json', couponCheckSchema, validationHook), async (c) => {
    const userId = c.var.member.id;
    const db = c.env.DB;
    const now = nowSeconds();
    const coupon = await findValidCoupon(db, c.req.valid('json').code, now);
    if (!coupon) throw new ApiError(422, 'coupon_invalid', { code: ['coupon_invalid'] });
    // Sign-up vouchers pay out only with a new account (register with code).
    if (coupon.signup_only) throw new ApiError(422, 'coupon_signup_only', { code: ['coupon_signup_only'] });
    const coins = couponCoins(coupon);
    if (coins !== null) {
      // Coin vouchers pay out at once: the redemption row and the ledger row share one batch.
      const result = await credit(db, userId, coins, 'coupon', `coupon:${coupon.code.toUpperCase()}:${userId}`, [redeemStatement(db, userId, coupon.code, now, now)]);
      if (!result.ok) throw new ApiError(409, 'coupon_redeemed');
      c.executionCtx.waitUntil(announceCoins(c.env, userId, result.coins));
      return c.json<RedeemAnswer>({ coupon: describe({ ...coupon, redeemed_at: now, used_at: now }, now), user: { coins: result.coins } });
    }
    try {
      await redeemStatement(db, userId, coupon.code, now, null).run();
    } catch {
      throw new ApiError(409, 'coupon_redeemed');
    }
    return c.json<RedeemAnswer>({ coupon: describe({ ...coupon, redeemed_at: now, used_at: null }, now) });
  });
