import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { couponCheckSchema, registerSchema, suggestEmail, tokenSchema } from '../../../shared/accounts';
import { couponValueText } from '../../../shared/coupons';
import type { AppEnv } from '../../env';
import { clientIp, pepper } from '../session/session.service';
import { nowSeconds } from '../../lib/clock';
import { ANON_BODY_MAX, anonymousWrite, bodyCap, COUPON_CHECKS_PER_ADDRESS, mailReservations, perAddress, reserveOrThrow, SIGNUPS_PER_ADDRESS, TOKEN_TRIES_PER_ADDRESS } from '../../lib/limits';
import { randomToken } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { validationHook } from '../../lib/validation';
import { consumeToken, usedVerifyTokenUser } from './tokens.repo';
import { startWelcomeOffer } from '../billing/billing.service';
import { applySignupVoucher, findValidCoupon } from '../billing/coupons.service';
import { updateSessionRow } from '../session/session.service';
import { createUser, findUserByEmail, findUserById, markVerified, nameTaken, wireUser } from './account.repo';
import { logInPayload, publicOrigin, sendVerification, uniqueUsername } from './account.service';
import type { CouponCheckAnswer, MailcheckAnswer, RegisterAnswer, ValidateAnswer } from '../../../shared/api';

export const registerRoutes = new Hono<AppEnv>()
  .post('/', bodyCap(ANON_BODY_MAX), zValidator('json', registerSchema, validationHook), async (c) => {
    const body = c.req.valid('json');
    const db = c.env.DB;
    // No account without its verification mail: refused before anything is stored.
    publicOrigin(c);
    const existing = await findUserByEmail(db, body.email);
    if (existing?.blocked) throw new ApiError(422, 'user_blocked');
    if (existing) throw new ApiError(409, 'exists');
    if (body.username && (await nameTaken(db, body.username))) throw new ApiError(422, 'validation_failed', { username: ['username_taken'] });
    if (body.code && !(await findValidCoupon(db, body.code, nowSeconds()))) throw new ApiError(422, 'validation_failed', { code: ['coupon_invalid'] });
    // Each sign-up sends a mail: the sign-up and the mail are reserved per client address (and
    // the mail per recipient) before the account exists.
    const refund = await reserveOrThrow(c, [
      { key: `signup:ip:${clientIp(c)}`, limit: perAddress(c.env, SIGNUPS_PER_ADDRESS), windowSeconds: 3600 },
      ...mailReservations(c, body.email),
    ]);

    const user = await createUser(db, {
      name: body.username ?? (await uniqueUsername(db, body.email.split('@')[0])),
      email: body.email,
      // Without a password the member logs in by mailed links until they set one.
      passwordHash: await hashPassword(body.password ?? randomToken(), pepper(c.env)),
      locale: c.get('locale'),
      now: nowSeconds(),
    }).catch((e: unknown) => {
      // Two sign-ups racing for the same address or name: the UNIQUE constraint decides.
      if (String(e).includes('UNIQUE')) return refund().then(() => Promise.reject(new ApiError(409, 'exists')));
      throw e;
    });
    // The welcome offer (+20% and a free video on the first purchase) runs in the countdown this
    // visitor saw, or from now when none was shown.
    await startWelcomeOffer(db, user.id, c.get('session').incentive_tsp, nowSeconds());
    await sendVerification(c, user);
    if (body.code) await applySignupVoucher(db, user.id, body.code, nowSeconds());
    // The success page needs the address; it is kept on the session for its route guard.
    await updateSessionRow(c, { register_email: user.email });
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
