import { isConstraintViolation, isUniqueViolation } from './errors';
import type { PayoutView } from '../../shared/payouts';
import { performerAccount } from './ledger.repo';

// Performers' payouts (issue 29 point 6; migration 0029): a request from the studio for at most
// what is payable (the earnings, less what is disputed: shares paid by members who owe after a
// chargeback), one open request per show; an operator pays requests in a batch, each moving its
// amount from performer:{show} to payouts in the ledger (payout:{id}, payout:{id}:out).

/**
 * What a show's earnings still hold of members who now owe (a chargeback not settled: their
 * shares less what was reversed or refunded): not paid out while they owe.
 */
const DISPUTED = `MAX(0, COALESCE((SELECT -SUM(l.amount) FROM ledger l JOIN ledger_accounts o ON o.account = 'owed:' || l.user_id
  WHERE l.counter = ?1 AND o.balance < 0), 0))`;
const BALANCE = 'COALESCE((SELECT balance FROM ledger_accounts WHERE account = ?1), 0)';

export interface PayoutSummary {
  balance: number;
  disputed: number;
  /** Requested, not paid yet. */
  pending: number;
  payable: number;
}

export async function payoutSummary(db: D1Database, showId: number): Promise<PayoutSummary> {
  const row = await db
    .prepare(`SELECT ${BALANCE} AS balance, ${DISPUTED} AS disputed, COALESCE((SELECT SUM(amount) FROM payouts WHERE show_id = ?2 AND state = 'requested'), 0) AS pending`)
    .bind(performerAccount(showId), showId)
    .first<{ balance: number; disputed: number; pending: number }>();
  const { balance, disputed, pending } = row ?? { balance: 0, disputed: 0, pending: 0 };
  return { balance, disputed, pending, payable: Math.max(0, balance - disputed - pending) };
}

export type RequestResult = { ok: true; id: number } | { ok: false; error: 'open_request' | 'over_payable' };

/** A request for `amount` (checked against what is payable in the statement itself). */
export async function requestPayout(db: D1Database, showId: number, userId: number, amount: number, now: number): Promise<RequestResult> {
  try {
    const row = await db
      .prepare(`INSERT INTO payouts (show_id, user_id, amount, requested_at) SELECT ?2, ?3, ?4, ?5 WHERE ?4 <= ${BALANCE} - ${DISPUTED} RETURNING id`)
      .bind(performerAccount(showId), showId, userId, amount, now)
      .first<{ id: number }>();
    return row ? { ok: true, id: row.id } : { ok: false, error: 'over_payable' };
  } catch (e) {
    if (isUniqueViolation(e)) return { ok: false, error: 'open_request' };
    throw e;
  }
}

/** A payout as the studio and the operators see it, with the performer's user (the ledger rows' member side). */
export interface PayoutRow extends PayoutView {
  user_id: number;
}

const PAYOUT_SELECT = 'SELECT p.id, p.show_id, s.name AS show_name, p.user_id, p.amount, p.state, p.requested_at, p.batch_id, p.decided_at, p.note FROM payouts p JOIN shows s ON s.id = p.show_id';

export async function payoutsWhere(db: D1Database, filter: { state?: string; showId?: number; batchId?: number }, limit = 200): Promise<PayoutRow[]> {
  const { results } = await db
    .prepare(`${PAYOUT_SELECT} WHERE (?1 IS NULL OR p.state = ?1) AND (?2 IS NULL OR p.show_id = ?2) AND (?3 IS NULL OR p.batch_id = ?3) ORDER BY p.id LIMIT ?4`)
    .bind(filter.state ?? null, filter.showId ?? null, filter.batchId ?? null, limit)
    .all<PayoutRow>();
  return results;
}

export async function newBatch(db: D1Database, operatorId: number, now: number): Promise<number> {
  return (await db.prepare('INSERT INTO payout_batches (created_by, created_at) VALUES (?, ?) RETURNING id').bind(operatorId, now).first<{ id: number }>())!.id;
}

export type PayResult = 'paid' | 'not_requested' | 'over_payable';

/** Pays one request in batch `batchId`: the ledger's two rows and the state, once; refused when the earnings no longer hold it. */
export async function payPayout(db: D1Database, p: PayoutRow, batchId: number, operatorId: number, now: number): Promise<PayResult> {
  const account = performerAccount(p.show_id);
  const open = "EXISTS (SELECT 1 FROM payouts WHERE id = ?2 AND state = 'requested')";
  try {
    const res = await db.batch([
      db
        .prepare(`INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT ?3, ?4, 'payout', 'payout:' || ?2, ?5, ?1 WHERE ${open} AND ?4 <= ${BALANCE} - ${DISPUTED}`)
        .bind(account, p.id, p.user_id, p.amount, now),
      db
        .prepare(`INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT ?3, -?4, 'payout', 'payout:' || ?2 || ':out', ?5, 'payouts' WHERE EXISTS (SELECT 1 FROM ledger WHERE ref = 'payout:' || ?2) AND ?1 = ?1`)
        .bind(account, p.id, p.user_id, p.amount, now),
      db
        .prepare(`UPDATE payouts SET state = 'paid', batch_id = ?3, decided_at = ?4, decided_by = ?5 WHERE id = ?2 AND state = 'requested' AND EXISTS (SELECT 1 FROM ledger WHERE ref = 'payout:' || ?2) AND ?1 = ?1`)
        .bind(account, p.id, batchId, now, operatorId),
    ]);
    if ((res[2].meta.changes ?? 0) === 1) return 'paid';
    return (await db.prepare("SELECT 1 FROM payouts WHERE id = ? AND state = 'requested'").bind(p.id).first()) ? 'over_payable' : 'not_requested';
  } catch (e) {
    if (isUniqueViolation(e)) return 'not_requested';
    if (isConstraintViolation(e, 'CHECK')) return 'over_payable';
    throw e;
  }
}

export async function rejectPayout(db: D1Database, id: number, operatorId: number, note: string, now: number): Promise<boolean> {
  const res = await db
    .prepare("UPDATE payouts SET state = 'rejected', decided_at = ?, decided_by = ?, note = ? WHERE id = ? AND state = 'requested'")
    .bind(now, operatorId, note, id)
    .run();
  return res.meta.changes === 1;
}

/** A show's earnings by UTC day and source (chat, tip, purchase; refunds and chargebacks taken back), newest first. */
export async function earningsByDay(db: D1Database, showId: number, days: number): Promise<{ day: string; reason: string; coins: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT date(created_at, 'unixepoch') AS day, reason, -SUM(amount) AS coins FROM ledger WHERE counter = ? AND reason <> 'payout' AND created_at >= unixepoch() - ? * 86400
       GROUP BY day, reason ORDER BY day DESC, reason`,
    )
    .bind(performerAccount(showId), days)
    .all<{ day: string; reason: string; coins: number }>();
  return results;
}

export interface BatchRow {
  id: number;
  created_at: number;
  count: number;
  coins: number;
}

/** The newest batches with what was paid in each. */
export async function recentBatches(db: D1Database, limit = 20): Promise<BatchRow[]> {
  const { results } = await db
    .prepare(
      `SELECT b.id, b.created_at, COUNT(p.id) AS count, COALESCE(SUM(p.amount), 0) AS coins FROM payout_batches b
       LEFT JOIN payouts p ON p.batch_id = b.id AND p.state = 'paid' GROUP BY b.id ORDER BY b.id DESC LIMIT ?`,
    )
    .bind(limit)
    .all<BatchRow>();
  return results;
}
