import { isUniqueViolation } from './errors';

// Money going back and out through the double-entry ledger (issue 29 points 5 and 6; migration
// 0029): an operator's refund of what a member paid a show, a payment provider's chargeback, a
// member's debt settled by their next payment, and a performer's payout. Every row keeps a
// reference derived from the one it answers (refund:{ref}, chargeback:{payment ref}:…,
// payout:{id}), so a repeat writes nothing, and every amount that depends on a balance is
// computed inside the batch (D1 runs it as one transaction): parallel calls cannot overdraw.

const INSERT = 'INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter)';

/** A member's payments to shows matched by the reference `ref` (with its :house row) or the LIKE pattern `like` (escaped with a backslash). */
export interface SpendMatch {
  userId: number;
  ref?: string;
  like?: string;
}

export type RefundResult = { ok: true; coins: number; refunded: number } | { ok: false; error: 'duplicate' | 'nothing' };

/**
 * Gives a member back what they paid a show (refund:{ref} per row): the performer's share from the
 * performer's earnings, or from the house where the earnings no longer hold it (paid out), the
 * house's part from the house. `extra` runs in the batch (e.g. the purchase's ownership removed).
 */
export async function refundSpend(db: D1Database, m: SpendMatch, now: number, extra: D1PreparedStatement[] = []): Promise<RefundResult> {
  const sql = `WITH items AS (
      SELECT ref, amount, counter FROM ledger
      WHERE user_id = ?1 AND amount < 0 AND reason IN ('chat', 'tip', 'purchase') AND ref NOT LIKE '%:paid'
        AND (ref = ?2 OR ref = ?2 || ':house' OR ref LIKE ?3 ESCAPE '\\')
    ), shares AS (SELECT counter, -SUM(amount) AS total FROM items WHERE counter GLOB 'performer:*' GROUP BY counter)
    ${INSERT}
    SELECT ?1, -i.amount, 'refund', 'refund:' || i.ref, ?4,
      CASE WHEN i.counter GLOB 'performer:*' AND COALESCE((SELECT balance FROM ledger_accounts a WHERE a.account = i.counter), 0) < (SELECT total FROM shares s WHERE s.counter = i.counter)
        THEN 'house' ELSE i.counter END
    FROM items i`;
  try {
    const res = await db.batch([db.prepare(sql).bind(m.userId, m.ref ?? null, m.like ?? null, now), ...extra, db.prepare('SELECT coins FROM users WHERE id = ?').bind(m.userId)]);
    const refunded = res[0].meta.changes ?? 0;
    if (refunded === 0) return { ok: false, error: 'nothing' };
    return { ok: true, coins: (res.at(-1)!.results[0] as { coins: number }).coins, refunded };
  } catch (e) {
    if (isUniqueViolation(e)) return { ok: false, error: 'duplicate' };
    throw e;
  }
}

export interface ChargebackInput {
  billingId: number;
  userId: number;
  provider: string;
  eventId: string;
  /** The payment's ledger reference (payment:{provider}:{billing}). */
  paymentRef: string;
  /** The package's coins (the payment row) and the bonus coins credited with it. */
  base: number;
  bonus: number;
}

export type ChargebackResult = { ok: true; coins: number; owed: number; reversed: number } | { ok: false; error: 'duplicate' | 'not_paid' };

/**
 * A chargeback of a paid billing, once (the chargebacks row's key): the package's coins back from
 * the member's balance; what they already spent is owed (account owed:{member}, the member locked
 * until settled), less the performers' shares of what they spent since the payment, taken back
 * where the earnings still hold them (not paid out); the bonus coins back as far as the balance
 * allows (a gift, not a debt).
 */
export async function chargeback(db: D1Database, c: ChargebackInput, now: number): Promise<ChargebackResult> {
  const u = c.userId;
  const p = `chargeback:${c.paymentRef}`;
  const owed = `owed:${u}`;
  const taken = 'EXISTS (SELECT 1 FROM chargebacks WHERE billing_id = ?9)';
  // The member's payments to performers since the payment, newest first (the coins it bought are spent there).
  const spent = await db
    .prepare(
      `SELECT l.id, l.counter, -l.amount AS share FROM ledger l WHERE l.user_id = ? AND l.counter GLOB 'performer:*' AND l.amount < 0
       AND l.id > (SELECT id FROM ledger WHERE ref = ?) AND NOT EXISTS (SELECT 1 FROM ledger r WHERE r.ref = 'refund:' || l.ref) ORDER BY l.id DESC LIMIT 100`,
    )
    .bind(u, c.paymentRef)
    .all<{ id: number; counter: string; share: number }>();
  // Every statement names ?9 (taken), so each binds the same nine parameters (and its own after them).
  const bind = (sql: string, ...more: (string | number)[]) => db.prepare(sql).bind(u, p, now, owed, c.base, c.bonus, c.provider, c.eventId, c.billingId, ...more);
  const statements = [
    bind(`INSERT INTO chargebacks (billing_id, user_id, provider, event_id, coins, created_at) SELECT ?9, ?1, ?7, ?8, ?5 + ?6, ?3 WHERE EXISTS (SELECT 1 FROM billings WHERE id = ?9 AND status = 'paid')`),
    bind(`${INSERT} SELECT ?1, -MIN(coins, ?5), 'chargeback', ?2, ?3, 'payments' FROM users WHERE id = ?1 AND MIN(coins, ?5) > 0 AND ${taken}`),
    // What the balance could not give back: owed, and the payment taken back in full.
    bind(`${INSERT} SELECT ?1, d, 'chargeback', ?2 || ':owed', ?3, ?4 FROM (SELECT ?5 - COALESCE((SELECT -amount FROM ledger WHERE ref = ?2), 0) AS d) WHERE d > 0 AND ${taken}`),
    bind(`${INSERT} SELECT ?1, -amount, 'chargeback', ?2 || ':owed:paid', ?3, 'payments' FROM ledger WHERE ref = ?2 || ':owed' AND ${taken}`),
    bind(`${INSERT} SELECT ?1, -MIN(coins, ?6), 'chargeback', ?2 || ':bonus', ?3, 'promotions' FROM users WHERE id = ?1 AND MIN(coins, ?6) > 0 AND ${taken}`),
  ];
  for (const s of spent.results) {
    // The performer's share, as far as their earnings hold it and the member still owes.
    statements.push(
      bind(
        `${INSERT} SELECT ?1, amt, 'chargeback', ?2 || ':rev:' || ?10, ?3, ?11 FROM (SELECT MIN(?12, COALESCE((SELECT balance FROM ledger_accounts WHERE account = ?11), 0), -COALESCE((SELECT balance FROM ledger_accounts WHERE account = ?4), 0)) AS amt) WHERE amt > 0 AND ${taken}`,
        s.id,
        s.counter,
        s.share,
      ),
      bind(`${INSERT} SELECT ?1, -amount, 'chargeback', ?2 || ':rev:' || ?10 || ':owed', ?3, ?4 FROM ledger WHERE ref = ?2 || ':rev:' || ?10 AND ${taken}`, s.id),
    );
  }
  statements.push(
    bind(`SELECT (SELECT coins FROM users WHERE id = ?1) AS coins, -COALESCE((SELECT balance FROM ledger_accounts WHERE account = ?4), 0) AS owed, ${taken} AS taken,
      (SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE ref LIKE ?2 || ':rev:%' AND counter GLOB 'performer:*') AS reversed`),
  );
  try {
    const res = await db.batch(statements);
    const row = res.at(-1)!.results[0] as { coins: number; owed: number; taken: number; reversed: number };
    if (!row.taken) return { ok: false, error: 'not_paid' };
    return { ok: true, coins: row.coins, owed: row.owed, reversed: row.reversed };
  } catch (e) {
    if (isUniqueViolation(e)) return { ok: false, error: 'duplicate' };
    throw e;
  }
}

/** A member who owes pays it from their balance (after a payment credited it), in its batch: reference `ref`. */
export function settleOwedStatement(db: D1Database, userId: number, ref: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      `${INSERT} SELECT u.id, -MIN(u.coins, -a.balance), 'chargeback', ?2, ?3, a.account FROM users u JOIN ledger_accounts a ON a.account = 'owed:' || u.id
       WHERE u.id = ?1 AND a.balance < 0 AND MIN(u.coins, -a.balance) > 0`,
    )
    .bind(userId, ref, now);
}

/** What a member owes after a chargeback (0: nothing, not locked). */
export async function owedBy(db: D1Database, userId: number): Promise<number> {
  return -((await db.prepare('SELECT balance FROM ledger_accounts WHERE account = ?').bind(`owed:${userId}`).first<{ balance: number }>())?.balance ?? 0);
}
