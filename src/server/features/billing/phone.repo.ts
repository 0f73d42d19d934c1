import type { BillingRow } from './billing.repo';
import { nowSeconds } from '../../lib/clock';

// Pay by phone. The call itself is the payment: the phone line charges the package price once,
// when the call connects, with a signed postback like any processor (applyPaymentEvent in billing.service.ts: coins credited
// with the billing's reference, so a replayed or parallel charge credits once). From then until
// the call ends the session is in voice-call mode (limited menus). A phone billing that never
// connected is never 'paid', so it never counts as money spent.

/** The state of a phone billing as the voice-call check and the phone line show it. */
export type PhoneCallState = 'pending' | 'active' | 'ended' | 'cancelled' | 'failed';

export function phoneCallState(b: Pick<BillingRow, 'status' | 'call_started_at' | 'call_ended_at'>): PhoneCallState {
  if (b.status === 'pending') return 'pending';
  if (b.status === 'cancelled' || b.status === 'failed') return b.status;
  // 'paid' (or 'active'/'ended' rows written before calls were charged)
  return b.status === 'active' || (b.call_started_at !== null && b.call_ended_at === null) ? 'active' : 'ended';
}

/**
 * Run in the batch that credits the charge, after the billing was marked paid (only then do they
 * act): the call has started, and the session enters voice-call mode unless another member is
 * logged in there by now (the call is bound to the member who opened it).
 */
export function phoneChargeStatements(db: D1Database, billing: BillingRow, now: number): D1PreparedStatement[] {
  const statements = [db.prepare("UPDATE billings SET call_started_at = COALESCE(call_started_at, ?) WHERE id = ? AND status = 'paid'").bind(now, billing.id)];
  if (billing.session_id && billing.user_id) {
    // A charge that arrives after the call was already hung up does not reopen voice-call mode.
    statements.push(
      db
        .prepare(
          `UPDATE sessions SET voicecall = 1 WHERE id = ?1
             AND EXISTS (SELECT 1 FROM billings WHERE id = ?2 AND status = 'paid' AND call_ended_at IS NULL)
             AND NOT EXISTS (SELECT 1 FROM auth_tokens WHERE session_id = ?1 AND user_id <> ?3)`,
        )
        .bind(billing.session_id, billing.id, billing.user_id),
    );
  }
  return statements;
}

/**
 * The latest phone billing of a session opened by this member (the one their voice-call mode is
 * about). Another member logged in later in the same browser finds none: a call pays only for
 * the member who opened it.
 */
export async function latestPhoneBilling(db: D1Database, sessionId: string, userId: number | null): Promise<BillingRow | null> {
  if (userId === null) return null;
  return db
    .prepare('SELECT * FROM billings WHERE session_id = ? AND user_id = ? AND is_phonecall = 1 ORDER BY id DESC LIMIT 1')
    .bind(sessionId, userId)
    .first<BillingRow>();
}

/**
 * Hangs up: a call that never connected is cancelled (nothing charged), a charged call keeps its
 * 'paid'. Either way the session leaves voice-call mode and forgets the phone payment. Idempotent.
 */
export async function endPhoneCall(db: D1Database, billing: Pick<BillingRow, 'id' | 'session_id'>, now = nowSeconds()): Promise<void> {
  const statements = [
    db
      .prepare(
        `UPDATE billings SET status = CASE WHEN status = 'pending' THEN 'cancelled' WHEN status = 'active' THEN 'ended' ELSE status END,
           call_ended_at = COALESCE(call_ended_at, ?1), updated_at = ?1
         WHERE id = ?2 AND is_phonecall = 1`,
      )
      .bind(now, billing.id),
  ];
  if (billing.session_id) {
    statements.push(
      db
        .prepare(
          `UPDATE sessions SET voicecall = 0, phonecall_payment_type_id = NULL, phonecall_product_id = NULL, phonecall_payment_name = NULL
           WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM billings WHERE session_id = ?1 AND is_phonecall = 1 AND id > ?2)`,
        )
        .bind(billing.session_id, billing.id),
    );
  }
  await db.batch(statements);
}
