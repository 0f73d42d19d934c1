import type { LogoutAnswer, SentAnswer, UserAnswer, ValidateAnswer } from '../../../shared/api';
import type { Session } from '../../../shared/session';
import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { cancelSchema, newsletterSchema, nicknameAddSchema, tokenSchema, userLogSchema, userUpdateSchema } from '../../../shared/accounts';
import type { AppEnv } from '../../env';
import { getCookie } from 'hono/cookie';
import { AUTH_COOKIE, cookieName, pepper, requireUser, requireVerified } from '../session/session.service';
import { logIn, logOut } from '../session/login.service';
import { nowSeconds } from '../../lib/clock';
import { sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { anonymousWrite, mailReservations, reserveOrThrow } from '../../lib/limits';
import { validationHook } from '../../lib/validation';
import { consumeToken, endLoginsStatement, revokeAccountLinks, revokeMailedLinks, usedVerifyTokenUser } from './tokens.repo';
import { NICKNAME_LIMIT, sendVerification } from './account.service';
import { endLogins } from './end-logins';
import {
  activateNickname,
  cancelAccount,
  countNicknames,
  emailTakenByOther,
  findUserById,
  insertNickname,
  insertUserLog,
  markVerified,
  removeNickname,
  setEmailStatement,
  setLocaleStatement,
  setNewsletter,
  setPasswordStatement,
  wireUser,
} from './account.repo';

const RESEND_WINDOW_S = 60;
const idParam = z.object({ id: z.string().regex(/^\d{1,9}$/, 'id_invalid') });

async function answerUser(c: Context<AppEnv>, userId: number) {
  const user = await wireUser(c.env.DB, userId);
  if (!user) throw new ApiError(401, 'unauthenticated');
  return c.json<UserAnswer>({ user });
}

const PASSWORD_CHECK_LIMIT = 8;
const USER_LOGS_PER_ADDRESS = 30;
/** A client log row: version and up to 50 short error entries. */
const USER_LOG_BODY_MAX = 8 * 1024;

/**
 * The current password, re-checked for sensitive changes; guesses are throttled like logins:
 * a slot is reserved before the hash is checked, and only a right password hands it back.
 */
async function checkPassword(c: Context<AppEnv>, userId: number, password: string) {
  const slot = await reserveOrThrow(c, [{ key: `password-check:${userId}`, limit: PASSWORD_CHECK_LIMIT, windowSeconds: 15 * 60 }]);
  const row = await findUserById(c.env.DB, userId);
  if (!row || !(await verifyPassword(password, pepper(c.env), row.password_hash))) {
    throw new ApiError(422, 'wrong_password', { current_password: ['wrong_password'], password: ['wrong_password'] });
  }
  await slot();
  return row;
}

export const userRoutes = new Hono<AppEnv>()
  // Anyone may write here: a row is at most USER_LOG_BODY_MAX, and one address writes at most
  // USER_LOGS_PER_ADDRESS rows an hour.
  .post('/log', anonymousWrite('user-log', USER_LOGS_PER_ADDRESS, USER_LOG_BODY_MAX), zValidator('json', userLogSchema, validationHook), async (c) => {
    const body = c.req.valid('json');
    await insertUserLog(c.env.DB, c.get('user')?.id ?? null, body.version, body.errors, nowSeconds());
    return c.body(null, 204);
  })
  .use('/*', requireUser)
  // A nickname is the member's identity in chats, which need a confirmed e-mail address.
  .use('/nickname/*', requireVerified)
  .post('/email_validate', zValidator('json', tokenSchema, validationHook), async (c) => {
    const userId = c.var.member.id;
    const { token } = c.req.valid('json');
    const tokenUser = await consumeToken(c.env.DB, token, 'verify', userId);
    if (tokenUser !== userId) {
      // A second click on the member's own link: already confirmed, not "invalid".
      if ((await usedVerifyTokenUser(c.env.DB, token)) === userId) return c.json<ValidateAnswer>({ status: 'already_verified', user: c.get('user') });
      throw new ApiError(422, 'token_invalid', { token: ['token_invalid'] });
    }
    await markVerified(c.env.DB, userId);
    return answerUser(c, userId);
  })
  .put('/update_newsletter', zValidator('json', newsletterSchema, validationHook), async (c) => {
    const userId = c.var.member.id;
    await setNewsletter(c.env.DB, userId, c.req.valid('json').newsletter);
    return answerUser(c, userId);
  })
  .put('/update', zValidator('json', userUpdateSchema, validationHook), async (c) => {
    const userId = c.var.member.id;
    const body = c.req.valid('json');
    const db = c.env.DB;
    const row = body.current_password ? await checkPassword(c, userId, body.current_password) : await findUserById(db, userId);
    if (!row) throw new ApiError(401, 'unauthenticated');
    const statements: D1PreparedStatement[] = [];
    if (body.locale) statements.push(setLocaleStatement(db, userId, body.locale));
    if (body.password) {
      statements.push(setPasswordStatement(db, userId, await hashPassword(body.password, pepper(c.env))));
      // A new password ends the account's other logins (this one stays) and its mailed reset links.
      const current = getCookie(c, cookieName(c, AUTH_COOKIE));
      statements.push(endLoginsStatement(db, userId, current ? await sha256Hex(current) : ''));
      statements.push(revokeAccountLinks(db, userId, nowSeconds()));
    }
    const emailChanged = body.email !== undefined && body.email.toLowerCase() !== row.email.toLowerCase();
    if (emailChanged) {
      if (await emailTakenByOther(db, body.email as string, userId)) throw new ApiError(422, 'validation_failed', { email: ['exists'] });
      // The verification mail to the new address counts against the mail caps before anything changes.
      await reserveOrThrow(c, mailReservations(c, body.email as string));
      statements.push(setEmailStatement(db, userId, body.email as string));
      // Links mailed to the old address (verify, reset, login) must not act on the new one.
      statements.push(revokeMailedLinks(db, userId, nowSeconds()));
    }
    if (statements.length) await db.batch(statements);
    if (body.password) {
      // This login goes on under a new token and session id (a copy of its cookie stops working);
      // what the other logins had open ends now, and this login's tabs reconnect their lobby sockets.
      const before = c.get('loginId');
      await logIn(c, userId);
      await endLogins(c.env, userId, { keep: before, renewed: before });
    }
    if (emailChanged && body.email) await sendVerification(c, { id: userId, name: row.name, email: body.email });
    if (body.password) return c.json<UserAnswer & { session: Session }>({ user: await wireUser(db, userId), session: c.get('session') });
    return answerUser(c, userId);
  })
  .post('/reset_email', async (c) => {
    const userId = c.var.member.id;
    const row = await findUserById(c.env.DB, userId);
    if (!row) throw new ApiError(401, 'unauthenticated');
    await reserveOrThrow(c, [{ key: `verify-mail:${userId}`, limit: 1, windowSeconds: RESEND_WINDOW_S }, ...mailReservations(c, row.email)]);
    await sendVerification(c, row);
    return c.json<SentAnswer>({ sent: true });
  })
  .post('/nickname/add', zValidator('json', nicknameAddSchema, validationHook), async (c) => {
    const userId = c.var.member.id;
    const { nickname } = c.req.valid('json');
    const db = c.env.DB;
    // One conditional insert: the count and the name are checked in the same statement that
    // writes, so a burst of parallel adds cannot pass the limit.
    const inserted = await insertNickname(db, userId, nickname, NICKNAME_LIMIT, nowSeconds());
    if (!inserted) {
      if ((await countNicknames(db, userId)) >= NICKNAME_LIMIT) throw new ApiError(422, 'validation_failed', { nickname: ['nickname_limit'] });
      throw new ApiError(422, 'validation_failed', { nickname: ['nickname_taken'] });
    }
    await activateNickname(db, userId, inserted);
    return answerUser(c, userId);
  })
  .post('/nickname/activate/:id', zValidator('param', idParam, validationHook), async (c) => {
    const userId = c.var.member.id;
    const id = Number(c.req.valid('param').id);
    if (!(await activateNickname(c.env.DB, userId, id))) throw new ApiError(404, 'not_found');
    return answerUser(c, userId);
  })
  .delete('/nickname/remove/:id', zValidator('param', idParam, validationHook), async (c) => {
    const userId = c.var.member.id;
    const id = Number(c.req.valid('param').id);
    if (!(await removeNickname(c.env.DB, userId, id))) throw new ApiError(404, 'not_found');
    return answerUser(c, userId);
  })
  .post('/cancel', zValidator('json', cancelSchema, validationHook), async (c) => {
    const userId = c.var.member.id;
    await checkPassword(c, userId, c.req.valid('json').password);
    await cancelAccount(c.env.DB, userId, nowSeconds());
    await logOut(c);
    await endLogins(c.env, userId, {});
    c.set('user', null);
    return c.json<LogoutAnswer>({ session: c.get('session') });
  });
