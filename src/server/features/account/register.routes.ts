import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { couponCheckSchema, registerSchema, suggestEmail, tokenSchema } from '../../../shared/accounts';
import { couponCoins, couponValid, couponValueText, type CouponType } from '../../../shared/coupons';
import type { AppEnv } from '../../env';
import { clientIp, nowSeconds, pepper } from '../session/session.service';
import { ANON_BODY_MAX, anonymousWrite, bodyCap, COUPON_CHECKS_PER_ADDRESS, mailReservations, perAddress, reserveOrThrow, SIGNUPS_PER_ADDRESS, TOKEN_TRIES_PER_ADDRESS } from '../../lib/limits';
import { randomToken } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { actionMail } from '../../lib/mail-templates';
import { mailerFor } from '../../lib/mailer';
import { hashPassword } from '../../lib/password';
import { validationHook } from '../../lib/validation';
import { logInPayload } from './auth.routes';
import { consumeToken, issueToken, usedVerifyTokenUser } from './tokens';
import { startWelcomeOffer } from '../billing/billing.service';
import { credit } from '../billing/ledger';
import { ensureSession } from '../session/session.routes';
import { toWireSession, updateSession } from '../session/session.repo';
import { createUser, findUserByEmail, findUserById, nameTaken, wireUser } from './account.repo';
import { publicOrigin, uniqueUsername } from './account.service';

interface CouponRow {
  code: string;
  type: CouponType;
  value: number;
  valid_until: number;
}

async function findValidCoupon(db: D1Database, code: string): Promise<CouponRow | null> {
  const row = await db.prepare('SELECT code, type, value, valid_until FROM coupons WHERE code = ? AND granted_only = 0').bind(code).first<CouponRow>();
  return row && couponValid(row, nowSeconds()) ? row : null;
}

/** A voucher given at sign-up: coin vouchers pay out at once, others wait in the member's coupons. */
async function applySignupVoucher(db: D1Database, userId: number, code: string): Promise<void> {
  const coupon = await findValidCoupon(db, code);
  if (!coupon) return;
  const now = nowSeconds();
  const record = db.prepare('INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const coins = couponCoins(coupon);
  if (coins === null) await record.bind(userId, coupon.code, now, null).run();
  else await credit(db, userId, coins, 'signup', `coupon:${coupon.code.toUpperCase()}:${userId}`, [record.bind(userId, coupon.code, now, now)]);
}

/** Sends (again) the verification link to a member. */
export async function sendVerification(c: Parameters<typeof publicOrigin>[0], user: { id: number; name: string; email: string }) {
  const origin = publicOrigin(c);
  const token = await issueToken(c.env.DB, user.id, 'verify');
  await c.env.DB.prepare('UPDATE users SET verify_sent_at = ? WHERE id = ?').bind(nowSeconds(), user.id).run();
  await mailerFor(c.env).send(
    actionMail('verify', c.get('locale'), user.email, { name: user.name, link: `${origin}/users/activate?token=${token}` }),
  );
}

export const registerRoutes = new Hono<AppEnv>()
  .post('/register', bodyCap(ANON_BODY_MAX), zValidator('json', registerSchema, validationHook), async (c) => {
    const body = c.req.valid('json');
    const db = c.env.DB;
    // No account without its verification mail: refused before anything is stored.
    publicOrigin(c);
    const existing = await findUserByEmail(db, body.email);
    if (existing?.blocked) throw new ApiError(422, 'user_blocked');
    if (existing) throw new ApiError(409, 'exists');
    if (body.username && (await nameTaken(db, body.username))) throw new ApiError(422, 'validation_failed', { username: ['username_taken'] });
    if (body.code && !(await findValidCoupon(db, body.code))) throw new ApiError(422, 'validation_failed', { code: ['coupon_invalid'] });
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
    if (body.code) await applySignupVoucher(db, user.id, body.code);
    // The success page needs the address; it is kept on the session for its route guard.
    const sessionRow = await updateSession(db, await ensureSession(c), { register_email: user.email });
    if (sessionRow) c.set('session', toWireSession(sessionRow));
    return c.json({ ...(await logInPayload(c, user.id)), email: user.email }, 201);
  })
  .get('/register/mailcheck', zValidator('query', z.object({ email: z.string().max(254, 'too_long') }), validationHook), (c) =>
    c.json({ suggestion: suggestEmail(c.req.valid('query').email.trim()) }),
  )
  .post('/register/coupon', anonymousWrite('coupon-check', COUPON_CHECKS_PER_ADDRESS), zValidator('json', couponCheckSchema, validationHook), async (c) => {
    const coupon = await findValidCoupon(c.env.DB, c.req.valid('json').code);
    if (!coupon) throw new ApiError(422, 'coupon_invalid', { code: ['coupon_invalid'] });
    return c.json({ valid: true, coupon: { code: coupon.code, type: coupon.type, value: coupon.value, text: couponValueText(coupon) } });
  })
  /**
   * The mailed link verifies the address. It logs in only the browser session that registered
   * (a link someone else mails must not log the visitor into their account); any other visitor
   * is asked to log in (status verified, user null), a logged-in member stays who they are.
   */
  .post('/register/validate', anonymousWrite('token', TOKEN_TRIES_PER_ADDRESS), zValidator('json', tokenSchema, validationHook), async (c) => {
    const db = c.env.DB;
    const { token } = c.req.valid('json');
    const userId = await consumeToken(db, token, 'verify');
    if (!userId) {
      if (await usedVerifyTokenUser(db, token)) return c.json({ status: 'already_verified', user: c.get('user'), session: c.get('session') });
      throw new ApiError(422, 'token_invalid', { token: ['token_invalid'] });
    }
    await db.prepare('UPDATE users SET is_verified = 1 WHERE id = ?').bind(userId).run();
    const current = c.get('user');
    if (current?.id === userId) {
      const user = await wireUser(db, userId);
      c.set('user', user);
      return c.json({ status: 'verified', user, session: c.get('session') });
    }
    const row = await findUserById(db, userId);
    const registeredHere = !current && row && c.get('session').register_email?.toLowerCase() === row.email.toLowerCase();
    if (registeredHere) return c.json({ status: 'verified', ...(await logInPayload(c, userId)) });
    return c.json({ status: 'verified', user: current, session: c.get('session') });
  });
