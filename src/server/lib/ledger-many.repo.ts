import { nowSeconds } from './clock';
import { performerAccount, performerPart, type Spending } from './ledger.repo';

// Many members pay at once (a show's minute tick: every due minute of the room in a few D1 batches
// instead of one batch per session). spend() makes a refused payment abort its batch; here one
// member's empty purse must not refuse the others, so each payment is guarded instead: its rows
// are written only if its reference is new and the member can pay the whole amount, checked in the
// batch itself (D1 runs a batch as one transaction, statement after statement). A replayed
// reference writes nothing, as with spend().

/** An SQL statement written by a feature's repository, ending in a WHERE clause this module extends. */
export interface GuardedStatement {
  sql: string;
  params: (string | number | null)[];
}

export interface ManySpending extends Spending {
  /** Written with the payment and only with it (the guard is appended to its WHERE with AND), e.g. a session's minute count. */
  alongside?: GuardedStatement;
}

export type ManyResult =
  /** Paid now. */
  | { ok: true; coins: number }
  /** Paid before (the reference exists): nothing written. */
  | { ok: false; error: 'duplicate'; coins: number | null }
  /** The member cannot pay the amount (or is gone): nothing written. */
  | { ok: false; error: 'insufficient_funds'; coins: number | null };

/** Payments per D1 batch: 3 statements each, and a batch stays well under D1's limits. */
export const SPEND_MANY_CHUNK = 100;

/** The rows of one payment, as spend() writes them: the performer's share under `ref`, the rest as `ref:house`. */
function rows(s: Spending): { amount: number; ref: string; counter: string }[] {
  const performer = performerPart(s.amount, s.share);
  const out = [];
  if (performer > 0) out.push({ amount: -performer, ref: s.ref, counter: performerAccount(s.showId) });
  if (s.amount > performer) out.push({ amount: -(s.amount - performer), ref: performer > 0 ? `${s.ref}:house` : s.ref, counter: 'house' });
  return out;
}

async function chunk(db: D1Database, items: ManySpending[]): Promise<ManyResult[]> {
  const now = nowSeconds();
  const statements: D1PreparedStatement[] = [];
  const firstRow: number[] = [];
  for (const s of items) {
    if (!Number.isInteger(s.amount) || s.amount <= 0 || s.from) throw new Error('spendMany: a positive amount from the member');
    // New reference, the member holds the whole amount (users.coins never goes below 0) and owes
    // nothing (a locked member's row would abort the whole batch, migration 0029's trigger).
    const guard = "NOT EXISTS (SELECT 1 FROM ledger WHERE ref = ?) AND COALESCE((SELECT coins FROM users WHERE id = ?), -1) >= ? AND NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE account = 'owed:' || ? AND balance < 0)";
    const guardParams = [s.ref, s.userId, s.amount, s.userId];
    // Before the rows: once the first row is written the guard no longer holds.
    if (s.alongside) statements.push(db.prepare(`${s.alongside.sql} AND ${guard}`).bind(...s.alongside.params, ...guardParams));
    const [first, ...rest] = rows(s);
    firstRow.push(statements.length);
    const insert = 'INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT ?, ?, ?, ?, ?, ?';
    statements.push(db.prepare(`${insert} WHERE ${guard}`).bind(s.userId, first.amount, s.reason, first.ref, now, first.counter, ...guardParams));
    // The other rows follow the first one written in this batch (a replay finds them all written).
    for (const r of rest) {
      statements.push(
        db
          .prepare(`${insert} WHERE EXISTS (SELECT 1 FROM ledger WHERE ref = ?) AND NOT EXISTS (SELECT 1 FROM ledger WHERE ref = ?)`)
          .bind(s.userId, r.amount, s.reason, r.ref, now, r.counter, first.ref, r.ref),
      );
    }
  }
  const users = [...new Set(items.map((s) => s.userId))];
  statements.push(db.prepare('SELECT id, coins FROM users WHERE id IN (SELECT value FROM json_each(?))').bind(JSON.stringify(users)));
  statements.push(db.prepare('SELECT ref FROM ledger WHERE ref IN (SELECT value FROM json_each(?))').bind(JSON.stringify(items.map((s) => s.ref))));
  const results = await db.batch(statements);
  const coins = new Map((results.at(-2)!.results as { id: number; coins: number }[]).map((u) => [u.id, u.coins]));
  const known = new Set((results.at(-1)!.results as { ref: string }[]).map((r) => r.ref));
  return items.map((s, i) => {
    const balance = coins.get(s.userId) ?? null;
    if ((results[firstRow[i]].meta.changes ?? 0) > 0 && balance !== null) return { ok: true, coins: balance };
    return { ok: false, error: known.has(s.ref) ? 'duplicate' : 'insufficient_funds', coins: balance };
  });
}

/**
 * Each member pays a show (debit, the performer's share and the house's rest), in batches of
 * SPEND_MANY_CHUNK; a refused payment (replayed, or more than the member holds) writes nothing and
 * refuses no other. Answers a result per payment, in order, with the member's balance after the
 * payment's batch.
 */
export async function spendMany(db: D1Database, items: ManySpending[]): Promise<ManyResult[]> {
  const out: ManyResult[] = [];
  for (let i = 0; i < items.length; i += SPEND_MANY_CHUNK) out.push(...(await chunk(db, items.slice(i, i + SPEND_MANY_CHUNK))));
  return out;
}
