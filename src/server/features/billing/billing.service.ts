import type { Bindings } from '../../env';
import { publishToUser } from '../../realtime/shards';
import { WELCOME_BONUS_PERCENT, INCENTIVE_COUNTDOWN_MS, INCENTIVE_OVERTIME_MS } from '../../../shared/constants';
import { bonusStatements, findWelcomeOffer, insertWelcomeOffer, releaseVoucher } from './billing.repo';
import { credit, type LedgerResult } from './ledger';
import type { PaymentEvent } from './provider';

export interface BillingRow {
  id: number;
  user_id: number | null;
  session_id: string | null;
  payment_type_id: number;
  product_id: number;
  amount_cents: number;
  coins: number;
  currency: string;
  status: 'pending' | 'active' | 'paid' | 'cancelled' | 'failed' | 'ended';
  provider: string;
  is_phonecall: number;
  coupon_code: string | null;
  /** Phone billings: when the call connected (and was charged) and when it ended. */
  call_started_at: number | null;
  call_ended_at: number | null;
  /** Bonus of a percent voucher, part of coins, credited only while the voucher is held for this billing. */
  voucher_coins: number;
  /** The welcome offer's bonus, part of coins, credited only if this billing wins the welcome claim. */
  welcome_coins: number;
  created_at: number;
  updated_at: number;
}

export const billingRef = (provider: string, billingId: number) => `payment:${provider}:${billingId}`;

/** Every open page of the member learns the new balance at once. */
export async function announceCoins(env: Bindings, userId: number, coins: number): Promise<void> {
  await publishToUser(env, userId, { type: 'user:coins', coins }).catch(() => undefined);
}

/**
 * Applies a verified postback. A payment credits the ledger with a reference derived from the
 * billing, in the same batch that marks it paid, so a replayed postback changes nothing.
 */
export async function applyPaymentEvent(
  env: Bindings,
  provider: string,
  event: PaymentEvent,
  /** Where the realtime announcement runs after the response (ctx.waitUntil). */
  later: (work: Promise<unknown>) => void,
): Promise<{ status: string; result: LedgerResult | null }> {
  const db = env.DB;
  const billing = await db.prepare('SELECT * FROM billings WHERE id = ? AND provider = ?').bind(event.billingId, provider).first<BillingRow>();
  if (!billing) return { status: 'unknown_billing', result: null };
  const now = Math.floor(Date.now() / 1000);
  if (event.status !== 'paid') {
    const statements = [db.prepare("UPDATE billings SET status = ?, updated_at = ? WHERE id = ? AND status = 'pending'").bind(event.status, now, billing.id)];
    // A voucher reserved for this checkout is free again for the next one.
    if (billing.user_id) statements.push(releaseVoucher(db, billing.user_id, billing.id));
    await db.batch(statements);
    // The phone line could not connect the call: nothing is charged and voice-call mode is off.
    if (billing.is_phonecall && billing.status === 'pending') await endPhoneCall(db, billing, now);
    return { status: event.status, result: null };
  }
  if (!billing.user_id) return { status: 'no_member', result: null };
  const extra = [
    db.prepare("UPDATE billings SET status = 'paid', updated_at = ? WHERE id = ?").bind(now, billing.id),
    ...bonusStatements(db, billing, billing.user_id, now),
  ];
  if (billing.is_phonecall) extra.push(...phoneChargeStatements(db, billing, now));
  // The package's coins under the payment's reference; each bonus has its own ledger row (above).
  const base = billing.coins - billing.voucher_coins - billing.welcome_coins;
  const result = await credit(db, billing.user_id, base, 'payment', billingRef(provider, billing.id), extra);
  if (result.ok) later(announceCoins(env, billing.user_id, result.coins));
  return { status: result.ok ? 'paid' : result.error, result };
}

// Pay by phone. The call itself is the payment: the phone line charges the package price once,
// when the call connects, with a signed postback like any processor ('paid' above: coins credited
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

/** Run in the batch that credits the charge: the call has started, the session enters voice-call mode. */
function phoneChargeStatements(db: D1Database, billing: BillingRow, now: number): D1PreparedStatement[] {
  const statements = [db.prepare('UPDATE billings SET call_started_at = COALESCE(call_started_at, ?) WHERE id = ?').bind(now, billing.id)];
  if (billing.session_id) {
    // A charge that arrives after the call was already hung up does not reopen voice-call mode.
    statements.push(
      db
        .prepare('UPDATE sessions SET voicecall = 1 WHERE id = ? AND EXISTS (SELECT 1 FROM billings WHERE id = ? AND call_ended_at IS NULL)')
        .bind(billing.session_id, billing.id),
    );
  }
  return statements;
}

/** The latest phone billing of a session (the one its voice-call mode is about). */
export async function latestPhoneBilling(db: D1Database, sessionId: string): Promise<BillingRow | null> {
  return db.prepare('SELECT * FROM billings WHERE session_id = ? AND is_phonecall = 1 ORDER BY id DESC LIMIT 1').bind(sessionId).first<BillingRow>();
}

/**
 * Hangs up: a call that never connected is cancelled (nothing charged), a charged call keeps its
 * 'paid'. Either way the session leaves voice-call mode and forgets the phone payment. Idempotent.
 */
export async function endPhoneCall(db: D1Database, billing: Pick<BillingRow, 'id' | 'session_id'>, now = Math.floor(Date.now() / 1000)): Promise<void> {
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

/** How long the welcome offer runs: the countdown and its overtime. */
export const WELCOME_WINDOW_S = (INCENTIVE_COUNTDOWN_MS + INCENTIVE_OVERTIME_MS) / 1000;

/**
 * Gives a new member the welcome offer: +WELCOME_BONUS_PERCENT% coins and a free video with the
 * first paid purchase inside the window. The window is the countdown the visitor saw (its start
 * is server time, see session/incentive_tsp), or starts at sign-up when none was shown; a sign-up
 * after the countdown ran out gets none.
 */
export async function startWelcomeOffer(db: D1Database, userId: number, countdownStart: number | null, now: number): Promise<void> {
  const start = countdownStart !== null && countdownStart <= now ? countdownStart : now;
  if (start + WELCOME_WINDOW_S < now) return;
  await insertWelcomeOffer(db, userId, start, start + WELCOME_WINDOW_S);
}

/** The member's welcome offer while it can still be won (window open, not yet claimed). */
export async function openWelcomeOffer(db: D1Database, userId: number, now: number): Promise<{ percent: number; until: number } | null> {
  const offer = await findWelcomeOffer(db, userId);
  if (!offer || offer.billing_id !== null || now < offer.starts_at || now > offer.ends_at) return null;
  return { percent: WELCOME_BONUS_PERCENT, until: offer.ends_at };
}
