import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { OPERATOR_SECOND_FACTOR_PATH, SECOND_FACTOR_ATTEMPTS, SECOND_FACTOR_ISSUER, SECOND_FACTOR_WINDOW_SECONDS, type SecondFactorEnrolment } from '../../../shared/operator';
import { base32Encode, otpauthUri, totpMatch } from '../../../shared/totp';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { open, seal, sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { reserve } from '../../lib/throttle.repo';
import { authCookie, sessionSecret } from '../session/session.service';
import { addOperator, auditStatement, dropTotp, putPendingTotp, totpRow, useStep, type AuditInput } from './operator.repo';

// The operators' door (issue 29 point 7): an operator account and, in this login, a correct code
// of its authenticator (TOTP); and the audit trail every operator action writes to.

/** What the sealed secrets are for (the key is derived from the session secret with it). */
const TOTP_PURPOSE = 'operator-totp';

/**
 * Every operator API: a member (401), an operator (403 not_operator), and unless `secondFactor`
 * is false (the second factor's own calls) one whose login gave the code (403 second_factor_required).
 */
export const requireOperator = <E extends AppEnv = AppEnv>(secondFactor = true) =>
  createMiddleware<E>(async (c, next) => {
    if (!c.get('user')) throw new ApiError(401, 'unauthenticated');
    const op = c.get('operator');
    if (!op) throw new ApiError(403, 'not_operator');
    if (secondFactor && op.secondFactorAt === null) throw new ApiError(403, 'second_factor_required');
    c.header('Cache-Control', 'no-store');
    await next();
  });

/**
 * Every operator page: a visitor goes to the login, an operator without the second factor in this
 * login to the code (both come back to `path`); answers 'ok', or 'not_operator' (the page shows a
 * notice with 403).
 */
export function operatorPageGate(c: Context<AppEnv>, path: string): Response | 'ok' | 'not_operator' {
  c.header('Cache-Control', 'no-store');
  const back = encodeURIComponent(path);
  if (!c.get('user')) return c.redirect(`/login?redirect=${back}`, 302);
  const op = c.get('operator');
  if (!op) return 'not_operator';
  if (op.secondFactorAt === null && path !== OPERATOR_SECOND_FACTOR_PATH) return c.redirect(`${OPERATOR_SECOND_FACTOR_PATH}?redirect=${back}`, 302);
  return 'ok';
}

type AuditAction = Omit<AuditInput, 'actorId' | 'actor'>;

/** Appends one row to the audit trail for the operator behind this request (behind an operator door). */
export async function audit<E extends AppEnv>(c: Context<E>, e: AuditAction): Promise<void> {
  const user = c.get('user')!;
  await auditStatement(c.env.DB, { actorId: user.id, actor: user.name, ...e }, nowSeconds()).run();
}

/** The same for a call with the deploy's bearer token (/api/ops): no person, the token is the actor. */
export async function auditToken(db: D1Database, e: AuditAction): Promise<void> {
  await auditStatement(db, { actorId: null, actor: 'ops-token', ...e }, nowSeconds()).run();
}

/** A new authenticator secret for the operator, shown this once; 409 once one is confirmed. */
export async function enrolSecondFactor(c: Context<AppEnv>): Promise<SecondFactorEnrolment> {
  const user = c.get('user')!;
  const secret = crypto.getRandomValues(new Uint8Array(20));
  const sealed = await seal(sessionSecret(c.env), TOTP_PURPOSE, secret);
  if (!(await putPendingTotp(c.env.DB, user.id, sealed, nowSeconds()))) throw new ApiError(409, 'second_factor_enrolled');
  const text = base32Encode(secret);
  return { secret: text, uri: otpauthUri(SECOND_FACTOR_ISSUER, user.email, text) };
}

/**
 * A code from the operator's authenticator: right (its step not used before), this login has the
 * second factor (and a pending enrolment is confirmed); wrong, 422; after SECOND_FACTOR_ATTEMPTS
 * wrong ones in the window, 429 (a right code does not count against it).
 */
export async function verifySecondFactor(c: Context<AppEnv>, code: string): Promise<void> {
  const user = c.get('user')!;
  const db = c.env.DB;
  const now = nowSeconds();
  const attempt = await reserve(db, [{ key: `second-factor:${user.id}`, limit: SECOND_FACTOR_ATTEMPTS, windowSeconds: SECOND_FACTOR_WINDOW_SECONDS }], now);
  if (!attempt.ok) throw new ApiError(429, 'too_many_attempts', undefined, { 'Retry-After': String(attempt.retryAfter) });
  const row = await totpRow(db, user.id);
  const secret = row ? await open(sessionSecret(c.env), TOTP_PURPOSE, row.sealed_secret) : null;
  if (!row || !secret) {
    await attempt.refund();
    throw new ApiError(409, 'second_factor_not_enrolled');
  }
  const step = await totpMatch(secret, code, now);
  const token = authCookie(c);
  if (step === null || !token || !(await useStep(db, user.id, step, await sha256Hex(token), now))) throw new ApiError(422, 'validation_failed', { code: ['code_invalid'] });
  await attempt.refund();
  await audit(c, { action: row.confirmed_at === null ? 'second_factor.enrolled' : 'second_factor.verified', target: `user:${user.id}` });
}

/** Makes a member an operator (they set up their second factor at their first visit); false when there is no such member or they are one. */
export async function appointOperator(db: D1Database, userId: number): Promise<boolean> {
  if (!(await addOperator(db, userId, nowSeconds()))) return false;
  await auditToken(db, { action: 'operator.appointed', target: `user:${userId}` });
  return true;
}

/** An operator's authenticator forgotten (a lost device); false when they had none. */
export async function resetSecondFactor(db: D1Database, userId: number): Promise<boolean> {
  if (!(await dropTotp(db, userId))) return false;
  await auditToken(db, { action: 'second_factor.reset', target: `user:${userId}` });
  return true;
}
