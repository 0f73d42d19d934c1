// Wire shapes of GET /api/billing (the picker's list), used by the API, the billing pages and the picker.

export interface BillingProduct {
  id: number;
  name: string;
  currency: string;
  amount: number;
  coins: number;
  isDefault: boolean;
}

export interface PaymentType {
  id: number;
  name: string;
  isPhoneCall: boolean;
  products: BillingProduct[];
}

export interface BillingList {
  paymentTypes: PaymentType[];
  campaign: { code: string; percent: number } | null;
  /** The welcome offer while it can be won (first purchase inside the countdown), else null. */
  welcome?: { percent: number; until: number } | null;
  /** null for visitors (voice call only). */
  limit: { daily: number; remaining: number; currency: string } | null;
  /** Coins the member owes after a chargeback (spending is locked until a payment settles it); 0 or absent: nothing. */
  owed?: number;
}
