import type { Bindings } from '../../env';
import { publishToUser, publishToUsers } from '../../realtime/shards';
import { WELCOME_BONUS_PERCENT, INCENTIVE_COUNTDOWN_MS, INCENTIVE_OVERTIME_MS } from '../../../shared/constants';
import type { PaymentType } from '../../../shared/billing';
import { bonusStatements, findBilling, findWelcomeOffer, insertWelcomeOffer, paidGuard, payStatement, releaseVoucher, settlePendingStatement, type BillingRow } from './billing.repo';
import { listCatalog } from './catalog.repo';
import { dueLatePayments, latePaymentStatements, markLatePaymentRefunded, type LatePaymentRow } from './late-payments.repo';
import { endPhoneCall, latestPhoneBilling, phoneCallState, phoneChargeStatements } from './phone.repo';
import { creditIf, type LedgerResult } from '../../lib/ledger.repo';
import type { PaymentEvent } from './provider';
import { chargeback, settleOwedStatement } from '../../lib/reversals.repo';
import { nowSeconds } from '../../lib/clock';

/** Phone payments one address may start per window (each sets up a billing and a phone line). */
export const PHONE_INITS_PER_ADDRESS = 20;
export const PHONE_INIT_WINDOW_SECONDS = 3_600;

/**
 * The phone billing whose call is connected right now for this browser session and was opened by
 * this member (voice-call mode), or null: another member in the same browser cannot use it.
 */
export async function activeCall(db: D1Database, sessionId: string | null, userId: number | null): Promise<number | null> {
  const row = sessionId ? await latestPhoneBilling(db, sessionId, userId) : null;
  return row && phoneCallState(row) === 'active' ? row.id : null;
}

/** Whether a phone billing's call is still connected (a voice-call chat ends when it is not). */
export async function callActive(db: D1Database, billingId: number): Promise<boolean> {
  const row = await findBilling(db, billingId);
  return !!row && row.is_phonecall === 1 && phoneCallState(row) === 'active';
}

/**
 * Most a member may spend in any 24 hours, in cents (a guard against mistakes and stolen cards).
 * Reserved when a billing starts (payments of the last 24 h plus open card and phone billings)
 * and checked again when it is paid (see billing.repo.ts payStatement).
 */
export const DAILY_LIMIT_CENTS = 50_000;

/** The payment types in order with their packages (visitors: the phone ones only). */
export async function catalog(db: D1Database, phoneOnly = false): Promise<PaymentType[]> {
  const { types, products } = await listCatalog(db, phoneOnly);
  return types.map((t) => ({
    id: t.id,
    name: t.name,
    isPhoneCall: t.is_phonecall === 1,
    products: products
      .filter((p) => p.payment_type_id === t.id)
      .map((p) => ({ id: p.id, name: p.name, currency: p.currency, amount: p.amount_cents / 100, coins: p.coins, isDefault: p.is_default === 1 })),
  }));
}

export const billingRef = (provider: string, billingId: number) => `payment:${provider}:${billingId}`;

/** Every open page of the member learns the new balance at once. */
export async function announceCoins(env: Bindings, userId: number, coins: number): Promise<void> {
  await publishToUser(env, userId, { type: 'user:coins', coins }).catch(() => undefined);
}

/** The same for many members at once (a room's minute tick), in one call to the lobby. */
export async function announceCoinsMany(env: Bindings, balances: { userId: number; coins: number }[]): Promise<void> {
  await publishToUsers(env, balances.map(({ userId, coins }) => ({ userId, event: { type: 'user:coins', coins } }))).catch(() => undefined);
}

/**
 * Applies a verified postback. A payment credits the ledger with a reference derived from the
 * billing, in the same batch that marks it paid, so a replayed postback changes nothing. Only an
 * open billing (pending, not expired, within the daily limit) can be paid; a payment for any other
 * is not credited but recorded for a refund (status 'refund_due').
 */
export async function applyPaymentEvent(
  env: Bindings,
  provider: string,
  event: PaymentEvent,
  /** Where the realtime announcement runs after the response (ctx.waitUntil). */
  later: (work: Promise<unknown>) => void,
): Promise<{ status: string; result: LedgerResult | null }> {
  const db = env.DB;
  const billing = await findBilling(db, event.billingId, provider);
  if (!billing) return { status: 'unknown_billing', result: null };
  const now = nowSeconds();
  if (event.status === 'chargeback') return applyChargeback(env, provider, billing, event, later);
  if (event.status !== 'paid') {
    const statements = [settlePendingStatement(db, billing.id, event.status, now)];
    // A voucher reserved for this checkout is free again for the next one.
    if (billing.user_id) statements.push(releaseVoucher(db, billing.user_id, billing.id));
    await db.batch(statements);
    // The phone line could not connect the call: nothing is charged and voice-call mode is off.
    if (billing.is_phonecall && billing.status === 'pending') await endPhoneCall(db, billing, now);
    return { status: event.status, result: null };
  }
  if (!billing.user_id) return { status: 'no_member', result: null };
  // Every statement after payStatement holds only if it took the payment: one batch, whatever
  // the billing's state was when it was read above.
  const before = [payStatement(db, billing, now, DAILY_LIMIT_CENTS), ...bonusStatements(db, billing, billing.user_id, now)];
  if (billing.is_phonecall) before.push(...phoneChargeStatements(db, billing, now));
  // The package's coins under the payment's reference; each bonus has its own ledger row (above).
  const base = billing.coins - billing.voucher_coins - billing.welcome_coins;
  const result = await creditIf(
    db,
    { userId: billing.user_id, amount: base, reason: 'payment', ref: billingRef(provider, billing.id) },
    paidGuard(billing.id),
    before,
    // A member who owes after a chargeback pays it from this payment first (and is unlocked).
    [...latePaymentStatements(db, billing, provider, event.eventId, now), settleOwedStatement(db, billing.user_id, `settle:${billingRef(provider, billing.id)}`, now)],
  );
  if (!result.ok) return { status: result.error, result };
  if (!result.applied) {
    // A phone call that can no longer be charged does not connect.
    if (billing.is_phonecall) await endPhoneCall(db, billing, now);
    return { status: 'refund_due', result: null };
  }
  later(announceCoins(env, billing.user_id, result.coins));
  return { status: 'paid', result };
}

/**
 * A chargeback of a paid billing (once, however often and at once the postback comes): its coins
 * back, what the member spent of them owed (the member locked until a payment settles it), the
 * performers' shares of that reversed where not paid out (reversals.repo.ts chargeback).
 */
async function applyChargeback(env: Bindings, provider: string, billing: BillingRow, event: PaymentEvent, later: (work: Promise<unknown>) => void) {
  if (billing.status !== 'paid' || !billing.user_id) return { status: 'not_paid', result: null };
  const bonus = billing.voucher_coins + billing.welcome_coins;
  const res = await chargeback(
    env.DB,
    { billingId: billing.id, userId: billing.user_id, provider, eventId: event.eventId, paymentRef: billingRef(provider, billing.id), base: billing.coins - bonus, bonus },
    nowSeconds(),
  );
  if (!res.ok) return { status: res.error, result: null };
  later(announceCoins(env, billing.user_id, res.coins));
  return { status: 'charged_back', result: null };
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

/** The operator's refund queue: payments that came too late and were never credited, oldest first. */
export function refundQueue(db: D1Database): Promise<LatePaymentRow[]> {
  return dueLatePayments(db, 500);
}

/** The operator refunded a late payment at the provider; false when it is not in the queue. */
export function markRefunded(db: D1Database, billingId: number): Promise<boolean> {
  return markLatePaymentRefunded(db, billingId);
}
