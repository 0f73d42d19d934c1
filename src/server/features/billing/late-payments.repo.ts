import { PENDING_HOLD_S, type BillingRow } from './billing.repo';

// Payments a billing could not take (migration 0021): recorded once per billing for the operator
// to refund, never credited.

/**
 * Run after payStatement in the same batch: a payment the billing could not take (it failed, was
 * cancelled, expired or would pass the limit) is recorded once for the operator to refund, the
 * billing is closed (a still pending one fails) and lets its voucher go. A paid billing is untouched.
 */
export function latePaymentStatements(db: D1Database, billing: Pick<BillingRow, 'id' | 'user_id'>, provider: string, eventId: string, now: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO late_payments (billing_id, user_id, provider, event_id, amount_cents, currency, reason, created_at)
         SELECT id, user_id, ?2, ?3, amount_cents, currency, CASE WHEN status <> 'pending' THEN status WHEN created_at <= ?4 THEN 'expired' ELSE 'limit' END, ?5
         FROM billings WHERE id = ?1 AND status <> 'paid'
         ON CONFLICT (billing_id) DO NOTHING`,
      )
      .bind(billing.id, provider, eventId.slice(0, 200), now - PENDING_HOLD_S, now),
    db.prepare("UPDATE billings SET status = 'failed', updated_at = ?2 WHERE id = ?1 AND status = 'pending'").bind(billing.id, now),
    db
      .prepare("UPDATE user_coupons SET billing_id = NULL WHERE user_id = ?1 AND billing_id = ?2 AND used_at IS NULL AND NOT EXISTS (SELECT 1 FROM billings WHERE id = ?2 AND status = 'paid')")
      .bind(billing.user_id, billing.id),
  ];
}

/** A late payment recorded for the operator (one per billing). */
export function findLatePayment(db: D1Database, billingId: number) {
  return db.prepare('SELECT billing_id, reason, state FROM late_payments WHERE billing_id = ?').bind(billingId).first<{ billing_id: number; reason: string; state: string }>();
}

export interface LatePaymentRow {
  billing_id: number;
  user_id: number | null;
  provider: string;
  event_id: string;
  amount_cents: number;
  currency: string;
  reason: string;
  state: 'refund_due' | 'refunded';
  created_at: number;
}

/** The payments still owed back, oldest first (the operator's refund queue). */
export async function dueLatePayments(db: D1Database, limit: number): Promise<LatePaymentRow[]> {
  const { results } = await db.prepare("SELECT * FROM late_payments WHERE state = 'refund_due' ORDER BY id LIMIT ?").bind(limit).all<LatePaymentRow & { id: number }>();
  return results.map(({ id: _id, ...row }) => row);
}

/** The operator refunded it at the provider: once (false when it is unknown or was refunded before). */
export async function markLatePaymentRefunded(db: D1Database, billingId: number): Promise<boolean> {
  return !!(await db.prepare("UPDATE late_payments SET state = 'refunded' WHERE billing_id = ? AND state = 'refund_due' RETURNING billing_id").bind(billingId).first());
}
