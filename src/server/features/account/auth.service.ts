import type { Context } from 'hono';
import type { z } from 'zod';
import type { registerSchema } from '../../../shared/accounts';
import type { AppEnv } from '../../env';
import { clientIp, pepper, updateSessionRow } from '../session/session.service';
import { knownDevice } from '../session/login.service';
import { nowSeconds } from '../../lib/clock';
import { randomToken } from '../../lib/crypto';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { mailReservations, perAddress, reserveOrThrow, SIGNUPS_PER_ADDRESS } from '../../lib/limits';
import { hashPassword, verifyPassword } from '../../lib/password';
import { clear, reserve } from '../../lib/throttle.repo';
import { startWelcomeOffer } from '../billing/billing.service';
import { applySignupVoucher, findValidCoupon } from '../billing/coupons.service';
import { createUser, findUserByEmail, findUserByLogin, nameTaken } from './account.repo';
import { LOGIN_LIMIT_ACCOUNT, LOGIN_LIMIT_IP, LOGIN_WINDOW_S, publicOrigin, sendVerification, uniqueUsername } from './account.service';

// The password login and the sign-up, shared by the API (JSON) and the forms that post without
// script (account.pages.tsx): the same checks, limits and errors (ApiError) either way.

let dummyHash: Promise<string> | null = null;

/** The member id for a login (name or e-mail) and password; 401, 422 or 429 (ApiError) otherwise. */
export async function passwordLogin(c: Context<AppEnv>, login: string, password: string): Promise<number> {
  const db = c.env.DB;
  const user = await findUserByLogin(db, login);
  // An existing account is counted by its id, so alternating its name and e-mail (or their
  // case) does not multiply the allowed guesses; unknown logins by their lower-cased text. A
  // browser that logged into the account before has its own counter: what strangers guess at the
  // account cannot lock its owner out there (a new browser waits, or resets by mail), and the
  // address counter still holds for everyone.
  const device = user ? await knownDevice(c, user.id) : null;
  const accountKey = user ? (device ? `login:dev:${user.id}:${device}` : `login:user:${user.id}`) : `login:acct:${login.toLowerCase()}`;
  // A failure slot on both counters is reserved before the hash is checked, so a burst gets
  // exactly the limit checked; a refused request hands back what it took (lib/throttle.ts).
  const slot = await reserve(db, [
    { key: accountKey, limit: LOGIN_LIMIT_ACCOUNT, windowSeconds: LOGIN_WINDOW_S },
    { key: `login:ip:${clientIp(c)}`, limit: LOGIN_LIMIT_IP, windowSeconds: LOGIN_WINDOW_S },
  ]);
  if (!slot.ok) throw new ApiError(429, 'too_many_attempts', undefined, { 'Retry-After': String(slot.retryAfter) });

  // Hash even for unknown names so the answer time does not reveal which accounts exist.
  dummyHash ??= hashPassword(randomToken(), pepper(c.env));
  const ok = await verifyPassword(password, pepper(c.env), user?.password_hash ?? (await dummyHash));
  // A failure keeps its slot until the window ends.
  if (!user || !ok) throw new ApiError(401, 'unknown_credentials');
  // The right password was no failure: its slots are handed back, and the failures on its counter
  // (the account's, or this device's) are forgotten (the member got in). The address's failures stay: logging into an own account
  // must not buy an address new guesses at others.
  await slot.refund();
  await clear(db, accountKey);
  if (user.blocked) throw new ApiError(422, 'user_blocked');
  return user.id;
}

/**
 * Creates the account of a valid sign-up (mail sent, voucher applied, welcome offer started,
 * the address kept on the session for the success page) and answers its id; 409 exists, 422 or
 * 429 (ApiError) otherwise. The caller logs the new member in.
 */
export async function registerAccount(c: Context<AppEnv>, body: z.infer<typeof registerSchema>): Promise<{ id: number; email: string }> {
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
    if (isUniqueViolation(e)) return refund().then(() => Promise.reject(new ApiError(409, 'exists')));
    throw e;
  });
  // The welcome offer (+20% and a free video on the first purchase) runs in the countdown this
  // visitor saw, or from now when none was shown.
  await startWelcomeOffer(db, user.id, c.get('session').incentive_tsp, nowSeconds());
  await sendVerification(c, user);
  if (body.code) await applySignupVoucher(db, user.id, body.code, nowSeconds());
  // The success page needs the address; it is kept on the session for its route guard.
  await updateSessionRow(c, { register_email: user.email });
  return { id: user.id, email: user.email };
}
