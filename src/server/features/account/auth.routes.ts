import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { loginSchema, resetSchema, resetSendSchema, tokenSchema } from '../../../shared/accounts';
import type { AppEnv } from '../../env';
import { ensureVisitorCookies, pepper } from '../session/session.service';
import { logOut } from '../session/login.service';
import { nowSeconds } from '../../lib/clock';
import { randomToken } from '../../lib/crypto';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { verifyGoogleCredential } from '../../lib/google';
import { actionMail } from '../../lib/mail-templates';
import { mailerFor } from '../../lib/mailer';
import { hashPassword } from '../../lib/password';
import { anonymousWrite, bodyCap, mailReservations, reserveOrThrow, TOKEN_TRIES_PER_ADDRESS } from '../../lib/limits';
import { validationHook } from '../../lib/validation';
import { createUser, findUserByEmail, findUserByGoogleSub, findUserByLogin, linkGoogle, resetPasswordStatement } from './account.repo';
import { logInPayload, publicOrigin, uniqueUsername } from './account.service';
import { consumeToken, endLoginsStatement, issueToken, revokeAccountLinks } from './tokens.repo';
import { passwordLogin } from './auth.service';
import { endLogins } from './end-logins';
import type { LoginAnswer, LogoutAnswer, SentAnswer, UserAnswer } from '../../../shared/api';

const RESET_MAIL_LIMIT = 5;
/** Reset requests per client address and hour (unknown logins cost a throttle row each). */
const RESET_REQUESTS_PER_ADDRESS = 30;
/** A Google credential is up to 8 KB; nothing else in a login comes near. */
const LOGIN_BODY_MAX = 16 * 1024;

const loggedIn = async (c: Context<AppEnv>, userId: number, status: 200 | 201 = 200) => c.json<LoginAnswer>(await logInPayload(c, userId), status);

async function googleLogin(c: Context<AppEnv>, credential: string, register: boolean) {
  const identity = await verifyGoogleCredential(c.env, credential);
  if (!identity) throw new ApiError(401, 'credential_invalid');
  const db = c.env.DB;
  const bySub = await findUserByGoogleSub(db, identity.sub);
  const byEmail = bySub ? null : await findUserByEmail(db, identity.email);
  // Only an address Google has verified may link to (and log into) an account with that
  // address; otherwise anyone could claim someone else's e-mail at Google and take it over.
  if (byEmail && !identity.emailVerified) throw new ApiError(409, 'exists');
  const existing = bySub ?? byEmail;
  if (existing) {
    if (existing.blocked) throw new ApiError(422, 'user_blocked');
    await linkGoogle(db, existing.id, identity.sub, identity.emailVerified);
    return loggedIn(c, existing.id);
  }
  if (!register) {
    // The client opens sign-up with this e-mail prefilled.
    return c.json({ message: 'google_not_registered', email: identity.email }, 422);
  }
  const user = await createUser(db, {
    name: await uniqueUsername(db, identity.name ?? identity.email.split('@')[0]),
    email: identity.email,
    passwordHash: await hashPassword(randomToken(), pepper(c.env)),
    locale: c.get('locale'),
    verified: identity.emailVerified,
    googleSub: identity.sub,
    now: nowSeconds(),
  }).catch((e: unknown) => {
    // A parallel sign-up took the address or name first.
    if (isUniqueViolation(e)) throw new ApiError(409, 'exists');
    throw e;
  });
  return loggedIn(c, user.id, 201);
}

/** /api/auth */
export const authRoutes = new Hono<AppEnv>()
  // The CSRF token belongs to a session: a visitor without one gets both cookies here.
  .get('/csrf-cookie', async (c) => {
    await ensureVisitorCookies(c);
    return c.body(null, 204);
  })
  .post('/login', bodyCap(LOGIN_BODY_MAX), zValidator('json', loginSchema, validationHook), (c) => {
    const body = c.req.valid('json');
    return 'credential' in body ? googleLogin(c, body.credential, body.register === true) : passwordLogin(c, body.username, body.password).then((id) => loggedIn(c, id));
  })
  .post('/logout', async (c) => {
    const userId = c.get('user')?.id;
    const loginId = c.get('loginId');
    await logOut(c);
    // Everything this login opened ends before the answer: its chats (no further minute), the
    // studio, room tokens, and its lobby sockets (its other tabs are told user:logout).
    if (userId) await endLogins(c.env, userId, { only: loginId });
    c.set('user', null);
    return c.json<LogoutAnswer>({ session: c.get('session') });
  })
  .get('/user', (c) => {
    const user = c.get('user');
    if (!user) throw new ApiError(401, 'unauthenticated');
    return c.json<UserAnswer>({ user });
  })
  .post('/send', anonymousWrite('reset-request', RESET_REQUESTS_PER_ADDRESS), zValidator('json', resetSendSchema, validationHook), async (c) => {
    const { email } = c.req.valid('json');
    const db = c.env.DB;
    const user = await findUserByLogin(db, email);
    // Counted per account (any spelling of it), else per typed text; a mail that goes out also
    // counts against the recipient's and this client address's hourly mail caps.
    await reserveOrThrow(c, [
      { key: user ? `reset:user:${user.id}` : `reset:${email.toLowerCase()}`, limit: RESET_MAIL_LIMIT, windowSeconds: 3600 },
      ...(user && !user.blocked ? mailReservations(c, user.email) : []),
    ]);
    if (!user) throw new ApiError(422, 'unknown_credentials');
    if (user.blocked) throw new ApiError(422, 'user_blocked');
    const origin = publicOrigin(c);
    const token = await issueToken(db, user.id, 'reset', user.email);
    await mailerFor(c.env).send(actionMail('reset', c.get('locale'), user.email, { name: user.name, link: `${origin}/users/reset/${token}` }));
    return c.json<SentAnswer>({ sent: true });
  })
  .post('/reset', anonymousWrite('token', TOKEN_TRIES_PER_ADDRESS), zValidator('json', resetSchema, validationHook), async (c) => {
    const { token, password } = c.req.valid('json');
    const db = c.env.DB;
    const userId = await consumeToken(db, token, 'reset');
    if (!userId) throw new ApiError(422, 'token_invalid', { token: ['token_invalid'] });
    // A new password ends every other login of the account and every other mailed reset link.
    await db.batch([
      resetPasswordStatement(db, userId, await hashPassword(password, pepper(c.env))),
      endLoginsStatement(db, userId),
      revokeAccountLinks(db, userId, nowSeconds()),
    ]);
    const answer = await loggedIn(c, userId);
    await endLogins(c.env, userId, { keep: c.get('loginId') });
    return answer;
  })
  .post('/token_login', anonymousWrite('token', TOKEN_TRIES_PER_ADDRESS), zValidator('json', tokenSchema, validationHook), async (c) => {
    const userId = await consumeToken(c.env.DB, c.req.valid('json').token, 'login');
    if (!userId) throw new ApiError(422, 'token_invalid', { token: ['token_invalid'] });
    return loggedIn(c, userId);
  });

