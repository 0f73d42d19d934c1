import type { ReasonCategory } from '../../../shared/operator';
import { restrictionPagePath, type AccountHit, type AccountSummary, type AppealOutcome, type OpenAppeal, type RestrictInput, type Statement } from '../../../shared/restrictions';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { mailOrigin } from '../../lib/config';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { mailerFor } from '../../lib/mailer';
import { endEveryLogin } from '../account/account.service';
import { changeShowStatus } from '../shows/shows.service';
import { restrictionMail } from './restriction-mail';
import {
  appealRow,
  decideAppealRow,
  insertAppeal,
  insertRestriction,
  liftRestriction,
  openAppeals,
  restrictionByStatement,
  restrictionRow,
  restrictionsOf,
  searchAccounts,
  targetRow,
  type RestrictionRow,
  type TargetRow,
} from './restrictions.repo';

// Bans and suspensions (issue 29 point 4; DSA art. 17 and 20): an operator restricts an account
// with a statement of reasons, which ends its logins and sockets at once and is mailed to it with
// a link to its statement and appeal; lifting and deciding appeals. The operator routes record
// each action in the audit trail.

const DAY = 86_400;

/** The origin for the mailed links; 503 before any work when mail cannot go out (no PUBLIC_ORIGIN in production). */
function origin(env: Bindings): string {
  const o = mailOrigin(env);
  if (!o) throw new ApiError(503, 'mail_unavailable');
  return o;
}

async function mailAccount(env: Bindings, to: TargetRow, kind: Parameters<typeof restrictionMail>[0], r: RestrictionRow, extra: { link?: string; answer?: string } = {}) {
  await mailerFor(env).send(restrictionMail(kind, to.locale === 'de' ? 'de' : 'en', to.email, { name: to.name, restriction: r, ...extra }));
}

/** The account an operator may act on: 404 unknown, 422 themselves or another operator. */
async function target(env: Bindings, operatorId: number, userId: number): Promise<TargetRow> {
  const row = await targetRow(env.DB, userId);
  if (!row) throw new ApiError(404, 'not_found');
  if (row.id === operatorId) throw new ApiError(422, 'target_self');
  if (row.is_operator) throw new ApiError(422, 'target_operator');
  return row;
}

/**
 * Restricts an account: one active restriction per account (409 already_restricted, also for
 * parallel requests), then every login ends (tokens, chats, studio, lobby sockets), a
 * performer's show goes offline, and the statement of reasons is mailed.
 */
export async function restrictAccount(env: Bindings, operatorId: number, userId: number, input: RestrictInput): Promise<RestrictionRow> {
  const base = origin(env);
  const account = await target(env, operatorId, userId);
  const now = nowSeconds();
  const token = randomToken(32);
  const id = await insertRestriction(
    env.DB,
    {
      userId,
      kind: input.kind,
      category: input.reason_category as ReasonCategory,
      reason: input.reason,
      by: operatorId,
      endsAt: input.kind === 'suspension' ? now + (input.days ?? 1) * DAY : null,
      statementHash: await sha256Hex(token),
    },
    now,
  );
  if (id === null) throw new ApiError(409, 'already_restricted');
  await endEveryLogin(env, userId);
  if (account.show_id !== null) await changeShowStatus(env, [{ id: account.show_id, online: false }]);
  const row = (await restrictionRow(env.DB, id))!;
  await mailAccount(env, account, 'restricted', row, { link: `${base}${restrictionPagePath(token)}` });
  return row;
}

/** Lifts an active restriction (404 unknown, 409 not_active) and tells the account. */
export async function liftAccountRestriction(env: Bindings, operatorId: number, id: number, reason: string): Promise<RestrictionRow> {
  origin(env);
  const row = await restrictionRow(env.DB, id);
  if (!row) throw new ApiError(404, 'not_found');
  if (!(await liftRestriction(env.DB, id, operatorId, reason, nowSeconds()))) throw new ApiError(409, 'not_active');
  const account = await targetRow(env.DB, row.user_id);
  if (account) await mailAccount(env, account, 'lifted', row, { answer: reason });
  return row;
}

/** Decides an open appeal (404 unknown, 409 already_decided); lifted lifts its restriction; the answer is mailed. */
export async function decideAppeal(env: Bindings, operatorId: number, appealId: number, outcome: AppealOutcome, answer: string): Promise<RestrictionRow> {
  origin(env);
  if (!(await appealRow(env.DB, appealId))) throw new ApiError(404, 'not_found');
  const decided = await decideAppealRow(env.DB, appealId, operatorId, outcome, answer, nowSeconds());
  if (!decided) throw new ApiError(409, 'already_decided');
  const row = (await restrictionRow(env.DB, decided.restriction_id))!;
  const account = await targetRow(env.DB, decided.user_id);
  if (account) await mailAccount(env, account, outcome === 'lifted' ? 'appeal_lifted' : 'appeal_upheld', row, { answer });
  return row;
}

/** The restriction behind a mailed statement link (404 for an unknown token). */
async function byToken(db: D1Database, token: string): Promise<RestrictionRow> {
  const row = /^[A-Za-z0-9_-]{16,128}$/.test(token) ? await restrictionByStatement(db, await sha256Hex(token)) : null;
  if (!row) throw new ApiError(404, 'not_found');
  return row;
}

/** The statement of reasons as the account sees it (who made it left out). */
export async function statementFor(db: D1Database, token: string): Promise<Statement> {
  const row = await byToken(db, token);
  const [account, all] = await Promise.all([targetRow(db, row.user_id), restrictionsOf(db, row.user_id, nowSeconds())]);
  const { created_by: _, ...restriction } = all.find((r) => r.id === row.id)!;
  const open = restriction.appeals.some((a) => a.decided_at === null);
  return { name: account?.name ?? '', restriction, can_appeal: restriction.active && !open };
}

/** The account's appeal: 409 appeal_open when one is open, 409 not_active when the restriction is over. */
export async function appealRestriction(db: D1Database, token: string, text: string): Promise<number> {
  const row = await byToken(db, token);
  try {
    const id = await insertAppeal(db, row.id, text, nowSeconds());
    if (id === null) throw new ApiError(409, 'not_active');
    return id;
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError(409, 'appeal_open');
    throw e;
  }
}

/** GET /api/operator/users/:id: the account, its show and its restrictions with their appeals; null when unknown. */
export async function accountSummary(db: D1Database, userId: number): Promise<AccountSummary | null> {
  const [row, restrictions] = await Promise.all([targetRow(db, userId), restrictionsOf(db, userId, nowSeconds())]);
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    locale: row.locale,
    created_at: row.created_at,
    is_operator: row.is_operator === 1,
    show: row.show_id === null ? null : { id: row.show_id, name: row.show_name ?? '' },
    restrictions,
  };
}

/** The open appeals, oldest first (the first 100). */
export const appealQueue = (db: D1Database): Promise<OpenAppeal[]> => openAppeals(db, 100);

/** Accounts by id, name or address (the first 20). */
export const findAccounts = (db: D1Database, q: string): Promise<AccountHit[]> => searchAccounts(db, q, nowSeconds(), 20);
