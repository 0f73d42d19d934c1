import { WELCOME_VIDEO_CODE } from '../../../shared/constants';

// SQL of the money rules of issue 9: the daily limit reserved by the billing insert itself, the
// percent voucher reserved for one billing, and the welcome offer claimed by one paid purchase.

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
  /** When the payment was accepted (the daily limit counts a payment from then); null until paid. */
  paid_at: number | null;
  /** Bonus of a percent voucher, part of coins, credited only while the voucher is held for this billing. */
  voucher_coins: number;
  /** The welcome offer's bonus, part of coins, credited only if this billing wins the welcome claim. */
  welcome_coins: number;
  created_at: number;
  updated_at: number;
}

export function findBilling(db: D1Database, id: number, provider?: string) {
  return provider === undefined
    ? db.prepare('SELECT * FROM billings WHERE id = ?').bind(id).first<BillingRow>()
    : db.prepare('SELECT * FROM billings WHERE id = ? AND provider = ?').bind(id, provider).first<BillingRow>();
}

/** What the checkout popup polls: a member's own billing only. */
export function findBillingStatus(db: D1Database, id: number, userId: number) {
  return db
    .prepare('SELECT id, status, coins, voucher_coins, welcome_coins FROM billings WHERE id = ? AND user_id = ?')
    .bind(id, userId)
    .first<Pick<BillingRow, 'id' | 'status' | 'coins' | 'voucher_coins' | 'welcome_coins'>>();
}

/** A pending billing the processor refused or the buyer abandoned. */
export const settlePendingStatement = (db: D1Database, id: number, status: string, now: number) =>
  db.prepare("UPDATE billings SET status = ?, updated_at = ? WHERE id = ? AND status = 'pending'").bind(status, now, id);

export const DAY_S = 86_400;
/**
 * How long a pending billing (card checkout or phone call) holds its amount against the daily
 * limit (and its voucher), and so how long it can be paid: after 30 minutes it has expired, and a
 * payment for it is never credited (see payStatement).
 */
export const PENDING_HOLD_S = 30 * 60;

/**
 * The cents counted against member `?{u}`'s daily limit: payments accepted in the last 24 hours
 * (`?{day}` = now - DAY_S) and billings still open (`?{hold}` = now - PENDING_HOLD_S), card and
 * phone alike. Only an open billing can become paid, so counting both in the one reservation
 * bounds every order of starts, payments and replays.
 */
const counted = (u: number, day: number, hold: number) =>
  `(SELECT COALESCE(SUM(amount_cents), 0) FROM billings
    WHERE user_id = ?${u} AND ((status = 'paid' AND COALESCE(paid_at, created_at) > ?${day}) OR (status = 'pending' AND created_at > ?${hold})))`;

export async function spentToday(db: D1Database, userId: number, now: number): Promise<number> {
  const row = await db
    .prepare(`SELECT ${counted(1, 2, 3)} AS cents`)
    .bind(userId, now - DAY_S, now - PENDING_HOLD_S)
    .first<{ cents: number }>();
  return row?.cents ?? 0;
}

/**
 * Marks a billing paid, only if it is still open (pending, not expired) and its amount still fits
 * the member's daily limit beside the payments of the last 24 hours: a failed, cancelled or
 * expired billing can never be paid, whatever order the postbacks come in.
 */
export const payStatement = (db: D1Database, billing: Pick<BillingRow, 'id' | 'user_id'>, now: number, limitCents: number) =>
  db
    .prepare(
      `UPDATE billings SET status = 'paid', paid_at = ?2, updated_at = ?2
       WHERE id = ?1 AND status = 'pending' AND created_at > ?3
         AND (SELECT COALESCE(SUM(amount_cents), 0) FROM billings WHERE user_id = ?4 AND status = 'paid' AND COALESCE(paid_at, created_at) > ?5) + amount_cents <= ?6`,
    )
    .bind(billing.id, now, now - PENDING_HOLD_S, billing.user_id, now - DAY_S, limitCents);

/** The condition under which a payment's ledger rows may be written: the billing is paid (by payStatement, earlier in the batch). */
export const paidGuard = (billingId: number) => ({ sql: "EXISTS (SELECT 1 FROM billings WHERE id = ? AND status = 'paid')", params: [billingId] });

export interface NewBilling {
  userId: number | null;
  sessionId: string;
  paymentTypeId: number;
  productId: number;
  amountCents: number;
  /** Everything promised: the package's coins plus voucherCoins plus welcomeCoins. */
  coins: number;
  voucherCoins: number;
  welcomeCoins: number;
  currency: string;
  provider: string;
  phone: boolean;
  couponCode: string | null;
  now: number;
}

/**
 * Inserts the billing only if the member's counted billings (paid in the last 24 h, or open) plus
 * this amount stay within the limit: one statement, so parallel inits cannot all pass a check made before.
 * null: the limit would be exceeded. Visitors (phone, no member) have no daily limit here.
 */
export function insertBillingWithinLimit(db: D1Database, b: NewBilling, limitCents: number): Promise<BillingRow | null> {
  return db
    .prepare(
      `INSERT INTO billings (user_id, session_id, payment_type_id, product_id, amount_cents, coins, voucher_coins, welcome_coins, currency, provider, is_phonecall, coupon_code, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13
       WHERE ?1 IS NULL OR ${counted(1, 14, 15)} + ?5 <= ?16
       RETURNING *`,
    )
    .bind(
      b.userId,
      b.sessionId,
      b.paymentTypeId,
      b.productId,
      b.amountCents,
      b.coins,
      b.voucherCoins,
      b.welcomeCoins,
      b.currency,
      b.provider,
      b.phone ? 1 : 0,
      b.couponCode,
      b.now,
      b.now - DAY_S,
      b.now - PENDING_HOLD_S,
      limitCents,
    )
    .first<BillingRow>();
}

/** The member's percent voucher for the next purchase (by code or redeemed), unless used or reserved. */
export function findCampaign(db: D1Database, userId: number, code: string | null, now: number) {
  return db
    .prepare(
      `SELECT c.code, c.value FROM coupons c
       WHERE c.type = 'PERCENT' AND c.valid_until > ?1 AND c.granted_only = 0
         AND ((?3 IS NOT NULL AND c.code = ?3) OR c.code IN (SELECT code FROM user_coupons WHERE user_id = ?2))
         AND NOT EXISTS (
           SELECT 1 FROM user_coupons uc WHERE uc.user_id = ?2 AND uc.code = c.code AND (
             uc.used_at IS NOT NULL OR EXISTS (
               SELECT 1 FROM billings b WHERE b.id = uc.billing_id AND (b.status = 'paid' OR (b.status = 'pending' AND b.created_at > ?4)))))
       ORDER BY c.value DESC LIMIT 1`,
    )
    .bind(now, userId, code, now - PENDING_HOLD_S)
    .first<{ code: string; value: number }>();
}

/**
 * Reserves a percent voucher for one billing: succeeds only if it is unused and not held by a
 * live billing (a cancelled, failed or abandoned one lets go). One conditional upsert: of 20
 * parallel billings exactly one gets it.
 */
export async function claimVoucher(db: D1Database, userId: number, code: string, billingId: number, now: number): Promise<boolean> {
  const row = await db
    .prepare(
      `INSERT INTO user_coupons (user_id, code, redeemed_at, used_at, billing_id) VALUES (?1, ?2, ?3, NULL, ?4)
       ON CONFLICT (user_id, code) DO UPDATE SET billing_id = ?4
       WHERE user_coupons.used_at IS NULL AND (user_coupons.billing_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM billings b WHERE b.id = user_coupons.billing_id AND (b.status = 'paid' OR (b.status = 'pending' AND b.created_at > ?5))))
       RETURNING billing_id`,
    )
    .bind(userId, code, now, billingId, now - PENDING_HOLD_S)
    .first<{ billing_id: number }>();
  return row?.billing_id === billingId;
}

/** A billing that did not get its voucher promises only what it will credit. */
export function dropVoucher(db: D1Database, billingId: number): Promise<BillingRow | null> {
  return db
    .prepare('UPDATE billings SET coins = coins - voucher_coins, voucher_coins = 0, coupon_code = NULL WHERE id = ? RETURNING *')
    .bind(billingId)
    .first<BillingRow>();
}

/** A cancelled or failed billing lets its voucher go. */
export function releaseVoucher(db: D1Database, userId: number, billingId: number): D1PreparedStatement {
  return db.prepare('UPDATE user_coupons SET billing_id = NULL WHERE user_id = ? AND billing_id = ? AND used_at IS NULL').bind(userId, billingId);
}

export interface WelcomeOffer {
  starts_at: number;
  ends_at: number;
  billing_id: number | null;
  claimed_at: number | null;
}

/** Records the welcome offer of a new member (the window is server time). */
export function insertWelcomeOffer(db: D1Database, userId: number, startsAt: number, endsAt: number): Promise<D1Result> {
  return db.prepare('INSERT INTO welcome_offers (user_id, starts_at, ends_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING').bind(userId, startsAt, endsAt).run();
}

export function findWelcomeOffer(db: D1Database, userId: number): Promise<WelcomeOffer | null> {
  return db.prepare('SELECT starts_at, ends_at, billing_id, claimed_at FROM welcome_offers WHERE user_id = ?').bind(userId).first<WelcomeOffer>();
}

/**
 * The statements of a paid billing's bonuses, for the batch that marks it paid and credits its
 * package. Each bonus is credited (its own ledger row from promotions, and for the welcome offer the
 * free-video coupon) only if this billing holds its claim; a claim another billing won leaves the
 * billing promising only what it got. The welcome claim is taken here, in the same batch, so of
 * parallel payments exactly one wins it (the unique reference `welcome:{userId}` backs that up).
 */
export function bonusStatements(db: D1Database, billing: BillingRow, userId: number, now: number): D1PreparedStatement[] {
  const b = billing.id;
  const voucherHeld = 'EXISTS (SELECT 1 FROM user_coupons WHERE user_id = ?1 AND billing_id = ?2 AND used_at IS NOT NULL)';
  const welcomeHeld = 'EXISTS (SELECT 1 FROM welcome_offers WHERE user_id = ?1 AND billing_id = ?2)';
  // Only a payment the billing took (payStatement, earlier in the batch) uses up a bonus.
  const paid = "EXISTS (SELECT 1 FROM billings WHERE id = ?2 AND status = 'paid')";
  const statements: D1PreparedStatement[] = [];
  if (billing.voucher_coins > 0 && billing.coupon_code) {
    statements.push(
      db.prepare(`UPDATE user_coupons SET used_at = ?3 WHERE user_id = ?1 AND billing_id = ?2 AND used_at IS NULL AND ${paid}`).bind(userId, b, now),
      db
        .prepare(`INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT ?1, ?3, 'coupon', ?4, ?5, 'promotions' WHERE ${voucherHeld}`)
        .bind(userId, b, billing.voucher_coins, `coupon:${billing.coupon_code.toUpperCase()}:${userId}`, now),
      db.prepare(`UPDATE billings SET coins = coins - voucher_coins, voucher_coins = 0 WHERE id = ?2 AND status = 'paid' AND NOT ${voucherHeld}`).bind(userId, b),
    );
  }
  if (billing.welcome_coins > 0) {
    statements.push(
      db
        .prepare(`UPDATE welcome_offers SET billing_id = ?2, claimed_at = ?3 WHERE user_id = ?1 AND billing_id IS NULL AND ?4 BETWEEN starts_at AND ends_at AND ${paid}`)
        .bind(userId, b, now, billing.created_at),
      db
        .prepare(`INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT ?1, ?3, 'signup', ?4, ?5, 'promotions' WHERE ${welcomeHeld}`)
        .bind(userId, b, billing.welcome_coins, `welcome:${userId}`, now),
      db
        .prepare(`INSERT INTO user_coupons (user_id, code, redeemed_at, used_at) SELECT ?1, ?3, ?4, NULL WHERE ${welcomeHeld} ON CONFLICT (user_id, code) DO NOTHING`)
        .bind(userId, b, WELCOME_VIDEO_CODE, now),
      db.prepare(`UPDATE billings SET coins = coins - welcome_coins, welcome_coins = 0 WHERE id = ?2 AND status = 'paid' AND NOT ${welcomeHeld}`).bind(userId, b),
    );
  }
  return statements;
}
