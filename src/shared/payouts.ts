// Performers' earnings and payouts (issue 29 point 6).

/** The smallest payout a performer may request, in coins. */
export const PAYOUT_MIN_COINS = 1000;

export interface PayoutView {
  id: number;
  show_id: number;
  show_name: string;
  amount: number;
  state: 'requested' | 'paid' | 'rejected';
  requested_at: number;
  batch_id: number | null;
  decided_at: number | null;
  note: string | null;
}

/** GET /api/studio/payouts */
export interface StudioPayouts {
  /** The show's earnings account now; what members who owe paid (disputed); requested, not paid; what may be requested. */
  balance: number;
  disputed: number;
  pending: number;
  payable: number;
  minimum: number;
  /** The last 30 days by UTC day and source (chat, tip, purchase, refund, chargeback), newest first. */
  by_day: { day: string; reason: string; coins: number }[];
  payouts: PayoutView[];
}
