import { isConstraintViolation, isUniqueViolation } from './errors';
import { PERFORMER_SHARE_PERCENT } from '../../shared/chat';
import { nowSeconds } from './clock';

// The coin ledger, double-entry: the one place that changes a balance. Each row is an immutable
// transfer between a member (user_id, whose balance is users.coins) and a counter account
// (payments received, promotions, the house, a show's performer earnings), with a unique
// reference. A trigger (migration 0012) applies every row to both balances, so the sum over all
// accounts stays zero and each balance equals its rows. The UNIQUE reference makes a replay fail
// and the CHECKs (member coins >= 0, earnings >= 0) make an overdraft fail; either aborts the
// whole batch, so nothing is applied twice or half.
export type LedgerReason = 'payment' | 'purchase' | 'tip' | 'chat' | 'coupon' | 'signup' | 'adjust' | 'refund' | 'chargeback' | 'payout';

/** A counter account: where a member's coins come from or go to. */
export type CounterAccount = 'payments' | 'promotions' | 'house' | 'payouts' | `performer:${number}` | `owed:${number}`;

export const performerAccount = (showId: number): CounterAccount => `performer:${showId}`;

/** Where a credit of this reason comes from (debits go to the house unless a show is paid). */
function counterFor(reason: LedgerReason, amount: number): CounterAccount {
  if (amount > 0 && reason === 'payment') return 'payments';
  if (amount > 0 && (reason === 'coupon' || reason === 'signup')) return 'promotions';
  return 'house';
}

export type LedgerResult =
  | { ok: true; coins: number }
  | { ok: false; error: 'duplicate' | 'insufficient_funds' | 'no_user'; coins: number | null };

/** The trigger's message for a spend of a member who owes a chargeback (migration 0029). */
const LOCKED = 'member_locked';

export interface LedgerEntry {
  userId: number;
  /** Positive credits, negative debits; never 0. */
  amount: number;
  reason: LedgerReason;
  /** Unique per real-world event, e.g. payment:sandbox:17, chat:session:minute. */
  ref: string;
  /** The other side of the transfer; by default payments/promotions for credits, the house for debits. */
  counter?: CounterAccount;
}

async function balance(db: D1Database, userId: number): Promise<number | null> {
  return (await db.prepare('SELECT coins FROM users WHERE id = ?').bind(userId).first<{ coins: number }>())?.coins ?? null;
}

/** The row of one ledger change (its trigger moves both balances). */
function ledgerStatement(db: D1Database, e: LedgerEntry, now: number): D1PreparedStatement {
  if (!Number.isInteger(e.amount) || e.amount === 0) throw new Error('ledger amount must be a non-zero integer');
  return db
    .prepare('INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(e.userId, e.amount, e.reason, e.ref, now, e.counter ?? counterFor(e.reason, e.amount));
}

/** Applies one change atomically; `extra` statements (e.g. marking a billing paid) share its fate. */
export function applyLedger(db: D1Database, e: LedgerEntry, extra: D1PreparedStatement[] = []): Promise<LedgerResult> {
  return applyLedgerRows(db, e.userId, [e], extra);
}

/** A refused batch as a result: a replayed reference, an overdraft, an unknown member. */
async function refused(db: D1Database, userId: number, err: unknown): Promise<LedgerResult> {
  if (isUniqueViolation(err)) return { ok: false, error: 'duplicate', coins: await balance(db, userId) };
  // A member who owes after a chargeback cannot spend: to the caller, as without coins.
  if (isConstraintViolation(err, 'CHECK') || String(err).includes(LOCKED)) return { ok: false, error: 'insufficient_funds', coins: await balance(db, userId) };
  if (String(err).includes('FOREIGN KEY')) return { ok: false, error: 'no_user', coins: null };
  throw err;
}

/** Several rows of one member (e.g. a payment split between a performer and the house) as one batch. */
async function applyLedgerRows(db: D1Database, userId: number, rows: LedgerEntry[], extra: D1PreparedStatement[]): Promise<LedgerResult> {
  try {
    const now = nowSeconds();
    const results = await db.batch([...extra, ...rows.map((e) => ledgerStatement(db, e, now)), db.prepare('SELECT coins FROM users WHERE id = ?').bind(userId)]);
    const coins = (results.at(-1)?.results[0] as { coins: number } | undefined)?.coins;
    if (coins === undefined) return { ok: false, error: 'no_user', coins: null };
    return { ok: true, coins };
  } catch (err) {
    return refused(db, userId, err);
  }
}

/** An SQL condition with its parameters (written by the feature's repository), e.g. "this billing is paid". */
export interface LedgerGuard {
  sql: string;
  params: (string | number | null)[];
}

/**
 * A credit written only if `guard` holds once `before` has run in the same batch (a payment is
 * credited only if its billing could take it); `after` runs behind it either way. A replayed
 * reference or an overdraft still aborts the whole batch. `applied`: whether the row was written.
 */
export async function creditIf(
  db: D1Database,
  e: LedgerEntry,
  guard: LedgerGuard,
  before: D1PreparedStatement[],
  after: D1PreparedStatement[],
): Promise<LedgerResult & { applied: boolean }> {
  if (!Number.isInteger(e.amount) || e.amount <= 0) throw new Error('credit amount must be a positive integer');
  try {
    const now = nowSeconds();
    const row = db
      .prepare(`INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT ?, ?, ?, ?, ?, ? WHERE ${guard.sql}`)
      .bind(e.userId, e.amount, e.reason, e.ref, now, e.counter ?? counterFor(e.reason, e.amount), ...guard.params);
    const results = await db.batch([...before, row, ...after, db.prepare('SELECT coins FROM users WHERE id = ?').bind(e.userId)]);
    const coins = (results.at(-1)?.results[0] as { coins: number } | undefined)?.coins;
    if (coins === undefined) return { ok: false, error: 'no_user', coins: null, applied: false };
    return { ok: true, coins, applied: (results[before.length]?.meta.changes ?? 0) > 0 };
  } catch (err) {
    return { ...(await refused(db, e.userId, err)), applied: false };
  }
}

export const credit = (db: D1Database, userId: number, amount: number, reason: LedgerReason, ref: string, extra?: D1PreparedStatement[]) =>
  applyLedger(db, { userId, amount: Math.abs(amount), reason, ref }, extra);

export const debit = (db: D1Database, userId: number, amount: number, reason: LedgerReason, ref: string, extra?: D1PreparedStatement[]) =>
  applyLedger(db, { userId, amount: -Math.abs(amount), reason, ref }, extra);

/** What a member pays a show for: a chat minute, a tip, a video or gallery. */
export interface Spending {
  userId: number;
  showId: number;
  /** Coins, > 0. */
  amount: number;
  reason: 'chat' | 'tip' | 'purchase';
  /** Unique per real-world event, e.g. chat:{sessionId}:{minute}, tip:{sessionId}:{n}. */
  ref: string;
  /** The performer's share in percent (default PERFORMER_SHARE_PERCENT). */
  share?: number;
  /**
   * Paid from this account, not the member's coins (a voice-call minute: the phone line's money):
   * the member is credited the amount first (reference `{ref}:paid`), so their balance stays.
   */
  from?: CounterAccount;
}

/** How many of `amount` coins go to the performer at `share` percent (rounded down); the rest is the house's. */
export function performerPart(amount: number, share = PERFORMER_SHARE_PERCENT): number {
  return Math.floor((amount * Math.min(100, Math.max(0, share))) / 100);
}

/**
 * A member pays a show: debits the member and credits the show's performer earnings with their
 * share (reference `ref`) and the house with the rest (`ref:house`), in one batch with `extra`.
 * An overdraft or a repeated reference changes nothing.
 */
export function spend(db: D1Database, s: Spending, extra: D1PreparedStatement[] = []): Promise<LedgerResult> {
  if (!Number.isInteger(s.amount) || s.amount <= 0) throw new Error('spend amount must be a positive integer');
  const performer = performerPart(s.amount, s.share);
  const rows: LedgerEntry[] = s.from ? [{ userId: s.userId, amount: s.amount, reason: s.reason, ref: `${s.ref}:paid`, counter: s.from }] : [];
  if (performer > 0) rows.push({ userId: s.userId, amount: -performer, reason: s.reason, ref: s.ref, counter: performerAccount(s.showId) });
  if (s.amount > performer) rows.push({ userId: s.userId, amount: -(s.amount - performer), reason: s.reason, ref: performer > 0 ? `${s.ref}:house` : s.ref, counter: 'house' });
  return applyLedgerRows(db, s.userId, rows, extra);
}

export interface EarningsEntry {
  ref: string;
  reason: LedgerReason;
  amount: number;
  created_at: number;
}

/** A show's performer earnings since a moment (unix seconds): the total and the newest 100 entries. */
export async function showEarnings(db: D1Database, showId: number, since: number): Promise<{ total: number; entries: EarningsEntry[] }> {
  const account = performerAccount(showId);
  const [total, entries] = await db.batch<{ total: number } | EarningsEntry>([
    db.prepare('SELECT COALESCE(-SUM(amount), 0) AS total FROM ledger WHERE counter = ? AND created_at >= ?').bind(account, since),
    db.prepare('SELECT ref, reason, -amount AS amount, created_at FROM ledger WHERE counter = ? AND created_at >= ? ORDER BY id DESC LIMIT 100').bind(account, since),
  ]);
  return { total: (total.results[0] as { total: number }).total, entries: entries.results as EarningsEntry[] };
}
