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
    return { status: event.status, result: null };
  }
  if (!billing.user_id) return { status: 'no_member', result: null };
  const extra = [
    db.prepare("UPDATE billings SET status = 'paid', updated_at = ? WHERE id = ?").bind(now, billing.id),
    ...bonusStatements(db, billing, billing.user_id, now),
  ];
  // The package's coins under the payment's reference; each bonus has its own ledger row (above).
  const base = billing.coins - billing.voucher_coins - billing.welcome_coins;
  const result = await credit(db, billing.user_id, base, 'payment', billingRef(provider, billing.id), extra);
  if (result.ok) later(announceCoins(env, billing.user_id, result.coins));
  return { status: result.ok ? 'paid' : result.error, result };
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
