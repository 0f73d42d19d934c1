import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { cancelSchema, newsletterSchema, nicknameAddSchema, tokenSchema, userLogSchema, userUpdateSchema } from '../../../shared/accounts';
import type { AppEnv } from '../../env';
import { getCookie } from 'hono/cookie';
import { AUTH_COOKIE, cookieName, logOut, nowSeconds, pepper, requireUser, requireUserId, requireVerified } from '../session/session.service';
import { sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { anonymousWrite, mailReservations, reserveOrThrow } from '../../lib/limits';
import { validationHook } from '../../lib/validation';
import { consumeToken, revokeAccountLinks, usedVerifyTokenUser } from './tokens';
import { sendVerification } from './register.routes';
import { findUserById, insertNickname, wireUser } from './account.repo';

export const NICKNAME_LIMIT = 10;
const RESEND_WINDOW_S = 60;
const idParam = z.object({ id: z.string().regex(/^\d{1,9}$/, 'id_invalid') });

async function answerUser(c: Context<AppEnv>, userId: number) {
  const user = await wireUser(c.env.DB, userId);
  if (!user) throw new ApiError(401, 'unauthenticated');
  return c.json({ user });
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

export const usersRoutes = new Hono<AppEnv>()
  // Anyone may write here: a row is at most USER_LOG_BODY_MAX, and one address writes at most
  // USER_LOGS_PER_ADDRESS rows an hour.
  .post('/user/log', anonymousWrite('user-log', USER_LOGS_PER_ADDRESS, USER_LOG_BODY_MAX), zValidator('json', userLogSchema, validationHook), async (c) => {
    const body = c.req.valid('json');
    await c.env.DB.prepare('INSERT INTO user_logs (user_id, version, errors, created_at) VALUES (?, ?, ?, ?)')
      .bind(c.get('user')?.id ?? null, body.version, JSON.stringify(body.errors), nowSeconds())
      .run();
    return c.body(null, 204);
  })
  .use('/user/*', requireUser)
  // A nickname is the member's identity in chats, which need a confirmed e-mail address.
  .use('/user/nickname/*', requireVerified)
  .post('/user/email_validate', zValidator('json', tokenSchema, validationHook), async (c) => {
    const userId = requireUserId(c);
    const { token } = c.req.valid('json');
    const tokenUser = await consumeToken(c.env.DB, token, 'verify', userId);
    if (tokenUser !== userId) {
      // A second click on the member's own link: already confirmed, not "invalid".
      if ((await usedVerifyTokenUser(c.env.DB, token)) === userId) return c.json({ status: 'already_verified', user: c.get('user') });
      throw new ApiError(422, 'token_invalid', { token: ['token_invalid'] });
    }
    await c.env.DB.prepare('UPDATE users SET is_verified = 1 WHERE id = ?').bind(userId).run();
    return answerUser(c, userId);
  })
  .put('/user/update_newsletter', zValidator('json', newsletterSchema, validationHook), async (c) => {
    const userId = requireUserId(c);
    await c.env.DB.prepare('UPDATE users SET newsletter = ? WHERE id = ?').bind(c.req.valid('json').newsletter ? 1 : 0, userId).run();
    return answerUser(c, userId);
  })
  .put('/user/update', zValidator('json', userUpdateSchema, validationHook), async (c) => {
    const userId = requireUserId(c);
    const body = c.req.valid('json');
    const db = c.env.DB;
    const row = body.current_password ? await checkPassword(c, userId, body.current_password) : await findUserById(db, userId);
    if (!row) throw new ApiError(401, 'unauthenticated');
    const statements: D1PreparedStatement[] = [];
    if (body.locale) statements.push(db.prepare('UPDATE users SET locale = ? WHERE id = ?').bind(body.locale, userId));
    if (body.password) {
      statements.push(db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').bind(await hashPassword(body.password, pepper(c.env)), userId));
      // A new password ends the account's other logins (this one stays) and its mailed reset links.
      const current = getCookie(c, cookieName(c, AUTH_COOKIE));
      statements.push(db.prepare('DELETE FROM auth_tokens WHERE user_id = ? AND token_hash <> ?').bind(userId, current ? await sha256Hex(current) : ''));
      statements.push(revokeAccountLinks(db, userId, nowSeconds()));
    }
    const emailChanged = body.email !== undefined && body.email.toLowerCase() !== row.email.toLowerCase();
    if (emailChanged) {
      const taken = await db.prepare('SELECT 1 AS x FROM users WHERE email = ? AND id <> ?').bind(body.email, userId).first();
      if (taken) throw new ApiError(422, 'validation_failed', { email: ['exists'] });
      // The verification mail to the new address counts against the mail caps before anything changes.
      await reserveOrThrow(c, mailReservations(c, body.email as string));
      statements.push(db.prepare('UPDATE users SET email = ?, is_verified = 0 WHERE id = ?').bind(body.email, userId));
    }
    if (statements.length) await db.batch(statements);
    if (emailChanged && body.email) await sendVerification(c, { id: userId, name: row.name, email: body.email });
    return answerUser(c, userId);
  })
  .post('/user/reset_email', async (c) => {
    const userId = requireUserId(c);
    const row = await findUserById(c.env.DB, userId);
    if (!row) throw new ApiError(401, 'unauthenticated');
    await reserveOrThrow(c, [{ key: `verify-mail:${userId}`, limit: 1, windowSeconds: RESEND_WINDOW_S }, ...mailReservations(c, row.email)]);
    await sendVerification(c, row);
    return c.json({ sent: true });
  })
  .post('/user/nickname/add', zValidator('json', nicknameAddSchema, validationHook), async (c) => {
    const userId = requireUserId(c);
    const { nickname } = c.req.valid('json');
    const db = c.env.DB;
    // One conditional insert: the count and the name are checked in the same statement that
    // writes, so a burst of parallel adds cannot pass the limit.
    const inserted = await insertNickname(db, userId, nickname, NICKNAME_LIMIT, nowSeconds());
    if (!inserted) {
      const count = await db.prepare('SELECT COUNT(*) AS n FROM nicknames WHERE user_id = ?').bind(userId).first<{ n: number }>();
      if ((count?.n ?? 0) >= NICKNAME_LIMIT) throw new ApiError(422, 'validation_failed', { nickname: ['nickname_limit'] });
      throw new ApiError(422, 'validation_failed', { nickname: ['nickname_taken'] });
    }
    await db.prepare('UPDATE users SET current_nickname_id = ? WHERE id = ?').bind(inserted, userId).run();
    return answerUser(c, userId);
  })
  .post('/user/nickname/activate/:id', zValidator('param', idParam, validationHook), async (c) => {
    const userId = requireUserId(c);
    const id = Number(c.req.valid('param').id);
    const res = await c.env.DB.prepare('UPDATE users SET current_nickname_id = ?1 WHERE id = ?2 AND EXISTS (SELECT 1 FROM nicknames WHERE id = ?1 AND user_id = ?2)')
      .bind(id, userId)
      .run();
    if (!res.meta.changes) throw new ApiError(404, 'not_found');
    return answerUser(c, userId);
  })
  .delete('/user/nickname/remove/:id', zValidator('param', idParam, validationHook), async (c) => {
    const userId = requireUserId(c);
    const id = Number(c.req.valid('param').id);
    const db = c.env.DB;
    // One transaction. users.current_nickname_id references nicknames (enforced), so a current
    // nickname is first replaced by the oldest remaining one, then deleted.
    const [, removed] = await db.batch([
      db
        .prepare(
          `UPDATE users SET current_nickname_id = (SELECT id FROM nicknames WHERE user_id = ?1 AND id <> ?2 ORDER BY id LIMIT 1)
           WHERE id = ?1 AND current_nickname_id = ?2`,
        )
        .bind(userId, id),
      db.prepare('DELETE FROM nicknames WHERE id = ? AND user_id = ? RETURNING id').bind(id, userId),
    ]);
    if (removed.results.length === 0) throw new ApiError(404, 'not_found');
    return answerUser(c, userId);
  })
  .post('/user/cancel', zValidator('json', cancelSchema, validationHook), async (c) => {
    const userId = requireUserId(c);
    await checkPassword(c, userId, c.req.valid('json').password);
    const db = c.env.DB;
    // Personal data is erased; the row stays (anonymised) for the ledger and purchases.
    // The user row first: it drops current_nickname_id, which references the nicknames deleted next.
    await db.batch([
      db
        .prepare(
          `UPDATE users SET name = 'deleted-' || id, email = 'deleted-' || id || '@invalid', password_hash = '!', newsletter = 0,
           google_sub = NULL, current_nickname_id = NULL, cancelled_at = ? WHERE id = ?`,
        )
        .bind(nowSeconds(), userId),
      db.prepare('DELETE FROM nicknames WHERE user_id = ?').bind(userId),
      db.prepare('DELETE FROM user_tokens WHERE user_id = ?').bind(userId),
      db.prepare('DELETE FROM auth_tokens WHERE user_id = ?').bind(userId),
    ]);
    await logOut(c);
    c.set('user', null);
    return c.json({ session: c.get('session') });
  });
