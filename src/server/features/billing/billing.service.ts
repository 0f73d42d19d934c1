import type { Bindings } from '../../env';
import { publishToUser } from '../../realtime/shards';
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
    await db.prepare("UPDATE billings SET status = ?, updated_at = ? WHERE id = ? AND status = 'pending'").bind(event.status, now, billing.id).run();
    return { status: event.status, result: null };
  }
  if (!billing.user_id) return { status: 'no_member', result: null };
  const extra = [db.prepare("UPDATE billings SET status = 'paid', updated_at = ? WHERE id = ?").bind(now, billing.id)];
  if (billing.coupon_code) {
    // The percent voucher behind the bonus is used up by this purchase.
    extra.push(
      db
        .prepare(
          `INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) VALUES (?1, ?2, ?3, ?3)
           ON CONFLICT (user_id, code) DO UPDATE SET used_at = ?3 WHERE used_at IS NULL`,
        )
        .bind(billing.user_id, billing.coupon_code, now),
    );
  }
  const result = await credit(db, billing.user_id, billing.coins, 'payment', billingRef(provider, billing.id), extra);
  if (result.ok) later(announceCoins(env, billing.user_id, result.coins));
  return { status: result.ok ? 'paid' : result.error, result };
}
