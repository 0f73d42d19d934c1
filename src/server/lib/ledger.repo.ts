// The coin ledger: the one place that changes a balance. Each change is an immutable row with a
// unique reference, written in the same batch as the balance update. The UNIQUE reference makes
// a replay fail and the CHECK (coins >= 0) makes an overdraft fail; either aborts the whole batch,
// so the balance always equals the sum of the ledger and nothing is applied twice.
export type LedgerReason = 'payment' | 'purchase' | 'tip' | 'chat' | 'coupon' | 'signup' | 'adjust';

export type LedgerResult =
  | { ok: true; coins: number }
  | { ok: false; error: 'duplicate' | 'insufficient_funds' | 'no_user'; coins: number | null };

export interface LedgerEntry {
  userId: number;
  /** Positive credits, negative debits; never 0. */
  amount: number;
  reason: LedgerReason;
  /** Unique per real-world event, e.g. payment:sandbox:17, chat:session:minute. */
  ref: string;
}

function isConstraint(e: unknown, what: 'UNIQUE' | 'CHECK'): boolean {
  return String((e as Error)?.message ?? e).includes(`${what} constraint failed`);
}

async function balance(db: D1Database, userId: number): Promise<number | null> {
  return (await db.prepare('SELECT coins FROM users WHERE id = ?').bind(userId).first<{ coins: number }>())?.coins ?? null;
}

/** The statements of one ledger change, for callers that must add their own rows to the batch. */
export function ledgerStatements(db: D1Database, e: LedgerEntry, now = Math.floor(Date.now() / 1000)): D1PreparedStatement[] {
  if (!Number.isInteger(e.amount) || e.amount === 0) throw new Error('ledger amount must be a non-zero integer');
  return [
    db.prepare('INSERT INTO ledger (user_id, amount, reason, ref, created_at) VALUES (?, ?, ?, ?, ?)').bind(e.userId, e.amount, e.reason, e.ref, now),
    db.prepare('UPDATE users SET coins = coins + ? WHERE id = ?').bind(e.amount, e.userId),
  ];
}

/** Applies one change atomically; `extra` statements (e.g. marking a billing paid) share its fate. */
export async function applyLedger(db: D1Database, e: LedgerEntry, extra: D1PreparedStatement[] = []): Promise<LedgerResult> {
  try {
    const results = await db.batch([...extra, ...ledgerStatements(db, e), db.prepare('SELECT coins FROM users WHERE id = ?').bind(e.userId)]);
    const coins = (results.at(-1)?.results[0] as { coins: number } | undefined)?.coins;
    if (coins === undefined) return { ok: false, error: 'no_user', coins: null };
    return { ok: true, coins };
  } catch (err) {
    if (isConstraint(err, 'UNIQUE')) return { ok: false, error: 'duplicate', coins: await balance(db, e.userId) };
    if (isConstraint(err, 'CHECK')) return { ok: false, error: 'insufficient_funds', coins: await balance(db, e.userId) };
    if (String(err).includes('FOREIGN KEY')) return { ok: false, error: 'no_user', coins: null };
    throw err;
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
}

/**
 * A member pays a show: debits the member and credits the show's performer earnings with their
 * share and the house with the rest, in one batch with `extra`. An overdraft or a repeated
 * reference changes nothing.
 */
export function spend(db: D1Database, s: Spending, extra: D1PreparedStatement[] = []): Promise<LedgerResult> {
  return debit(db, s.userId, s.amount, s.reason, s.ref, extra);
}
