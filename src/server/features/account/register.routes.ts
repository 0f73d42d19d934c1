import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { couponCheckSchema, registerSchema, suggestEmail, tokenSchema } from '../../../shared/accounts';
import { couponValueText } from '../../../shared/coupons';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ANON_BODY_MAX, anonymousWrite, bodyCap, COUPON_CHECKS_PER_ADDRESS, TOKEN_TRIES_PER_ADDRESS } from '../../lib/limits';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { consumeToken, usedVerifyTokenUser } from './tokens.repo';
import { registerAccount } from './auth.service';
import { findValidCoupon } from '../billing/coupons.service';
import { findUserById, markVerified, wireUser } from './account.repo';
import { logInPayload } from './account.service';
import type { CouponCheckAnswer, MailcheckAnswer, RegisterAnswer, ValidateAnswer } from '../../../shared/api';

export const registerRoutes = new Hono<AppEnv>()
  .post('/', bodyCap(ANON_BODY_MAX), zValidator('json', registerSchema, validationHook), async (c) => {
    const user = await registerAccount(c, c.req.valid('json'));
    return c.json<RegisterAnswer>({ ...(await logInPayload(c, user.id)), email: user.email }, 201);
  })
  .get('/mailcheck', zValidator('query', z.object({ email: z.string().max(254, 'too_long') }), validationHook), (c) =>
    c.json<MailcheckAnswer>({ suggestion: suggestEmail(c.req.valid('query').email.trim()) }),
  )
  .post('/coupon', anonymousWrite('coupon-check', COUPON_CHECKS_PER_ADDRESS), zValidator('json', couponCheckSchema, validationHook), async (c) => {
    const coupon = await findValidCoupon(c.env.DB, c.req.valid('json').code, nowSeconds());
    if (!coupon) throw new ApiError(422, 'coupon_invalid', { code: ['coupon_invalid'] });
    return c.json<CouponCheckAnswer>({ valid: true, coupon: { code: coupon.code, type: coupon.type, value: coupon.value, text: couponValueText(coupon) } });
  })
  /**
   * The mailed link verifies the address. It logs in only the browser session that registered
   * (a link someone else mails must not log the visitor into their account); any other visitor
   * is asked to log in (status verified, user null), a logged-in member stays who they are.
   */
  .post('/validate', anonymousWrite('token', TOKEN_TRIES_PER_ADDRESS), zValidator('json', tokenSchema, validationHook), async (c) => {
    const db = c.env.DB;
    const { token } = c.req.valid('json');
    const userId = await consumeToken(db, token, 'verify');
    if (!userId) {
      if (await usedVerifyTokenUser(db, token)) return c.json<ValidateAnswer>({ status: 'already_verified', user: c.get('user'), session: c.get('session') });
      throw new ApiError(422, 'token_invalid', { token: ['token_invalid'] });
    }
    await markVerified(db, userId);
    const current = c.get('user');
    if (current?.id === userId) {
      const user = await wireUser(db, userId);
      c.set('user', user);
      return c.json<ValidateAnswer>({ status: 'verified', user, session: c.get('session') });
    }
    const row = await findUserById(db, userId);
    const registeredHere = !current && row && c.get('session').register_email?.toLowerCase() === row.email.toLowerCase();
    if (registeredHere) return c.json<ValidateAnswer>({ status: 'verified', ...(await logInPayload(c, userId)) });
    return c.json<ValidateAnswer>({ status: 'verified', user: current, session: c.get('session') });
  });
