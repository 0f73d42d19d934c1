import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { clientIp, nowSeconds, requireUser, requireUserId } from '../../lib/auth';
import { ApiError } from '../../lib/errors';
import { hit } from '../../lib/throttle';
import { validationHook } from '../../lib/validation';
import { ensureSession } from '../session/session.routes';
import { updateSession } from '../session/session.repo';
import { applyPaymentEvent, endPhoneCall, latestPhoneBilling, phoneCallState, type BillingRow } from './billing.service';
import { providerFor } from './provider';

/** Phone payments one address may start per window (each sets up a billing and a phone line). */
export const PHONE_INITS_PER_ADDRESS = 20;
export const PHONE_INIT_WINDOW_SECONDS = 3_600;

/** Most a member may spend per day, in cents (a guard against mistakes and stolen cards). */
export const DAILY_LIMIT_CENTS = 50_000;

interface ProductRow {
  id: number;
  payment_type_id: number;
  name: string;
  currency: string;
  amount_cents: number;
  coins: number;
  is_default: number;
  type_name: string;
  provider: string;
  is_phonecall: number;
}

const initSchema = z.object({
  paymenttypeid: z.coerce.number({ error: 'required' }).int('required').positive('required'),
  productid: z.coerce.number({ error: 'required' }).int('required').positive('required'),
  code: z.string().trim().max(64, 'too_long').optional(),
});

async function spentToday(db: D1Database, userId: number): Promise<number> {
  const since = nowSeconds() - 86_400;
  const row = await db
    .prepare("SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM billings WHERE user_id = ? AND status IN ('paid', 'pending', 'active') AND created_at > ?")
    .bind(userId, since)
    .first<{ cents: number }>();
  return row?.cents ?? 0;
}

/** The member's active percent voucher (bonus coins on the next purchase), if any. */
async function campaignFor(db: D1Database, userId: number, code?: string) {
  const row = await db
    .prepare(
      `SELECT c.code, c.value FROM coupons c
       WHERE c.type = 'PERCENT' AND c.valid_until > ?1 AND (
         (?3 IS NOT NULL AND c.code = ?3)
         OR c.code IN (SELECT code FROM user_coupons WHERE user_id = ?2 AND used_at IS NULL))
       ORDER BY c.value DESC LIMIT 1`,
    )
    .bind(nowSeconds(), userId, code ?? null)
    .first<{ code: string; value: number }>();
  return row ? { code: row.code, percent: row.value } : null;
}

async function product(db: D1Database, paymentTypeId: number, productId: number): Promise<ProductRow> {
  const row = await db
    .prepare(
      `SELECT p.*, t.name AS type_name, t.provider, t.is_phonecall FROM products p JOIN payment_types t ON t.id = p.payment_type_id
       WHERE p.id = ? AND p.payment_type_id = ?`,
    )
    .bind(productId, paymentTypeId)
    .first<ProductRow>();
  if (!row) throw new ApiError(422, 'validation_failed', { productid: ['product_invalid'] });
  return row;
}

async function startBilling(c: Context<AppEnv>, body: z.infer<typeof initSchema>, phone: boolean) {
  const db = c.env.DB;
  const user = c.get('user');
  const p = await product(db, body.paymenttypeid, body.productid);
  if (Boolean(p.is_phonecall) !== phone) throw new ApiError(422, 'validation_failed', { paymenttypeid: ['payment_type_invalid'] });
  if (user && (await spentToday(db, user.id)) + p.amount_cents > DAILY_LIMIT_CENTS) throw new ApiError(422, 'billing_limit');
  const campaign = user ? await campaignFor(db, user.id, body.code) : null;
  const coins = p.coins + (campaign ? Math.round((p.coins * campaign.percent) / 100) : 0);
  const sessionId = await ensureSession(c);
  const now = nowSeconds();
  const billing = await db
    .prepare(
      `INSERT INTO billings (user_id, session_id, payment_type_id, product_id, amount_cents, coins, currency, provider, is_phonecall, coupon_code, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .bind(user?.id ?? null, sessionId, p.payment_type_id, p.id, p.amount_cents, coins, p.currency, p.provider, phone ? 1 : 0, campaign?.code ?? null, now, now)
    .first<BillingRow>();
  if (!billing) throw new Error('billing insert returned nothing');
  const provider = providerFor(c.env, p.provider);
  if (!provider) throw new ApiError(503, 'billing.error');
  const link = await provider.checkoutUrl({ id: billing.id, amountCents: p.amount_cents, currency: p.currency, coins, productName: p.name }, new URL(c.req.url).origin);
  if (phone) {
    await updateSession(db, sessionId, { phonecall_payment_type_id: p.payment_type_id, phonecall_product_id: p.id, phonecall_payment_name: p.type_name });
  }
  return c.json({ link, id: billing.id, coins });
}

/** Provider postbacks: authenticated by their signature, not by cookies (mounted before CSRF). */
export const billingCallbackRoutes = new Hono<AppEnv>().post('/callback/:provider', async (c) => {
  const name = c.req.param('provider');
  const provider = providerFor(c.env, name);
  if (!provider) throw new ApiError(404, 'not_found');
  const event = await provider.verifyCallback(c.req.raw);
  if (!event) throw new ApiError(403, 'invalid_signature');
  const { status } = await applyPaymentEvent(c.env, provider.name, event, (p) => c.executionCtx.waitUntil(p));
  return c.json({ ok: true, status });
});

export const billingRoutes = new Hono<AppEnv>()
  .get('/billing/check_phonecall', async (c) => {
    const sessionId = c.get('sessionId');
    const row = sessionId ? await latestPhoneBilling(c.env.DB, sessionId) : null;
    const state = row ? phoneCallState(row) : 'none';
    const status = state === 'pending' || state === 'active' || state === 'none' ? state : 'ended';
    return c.json({ status, id: row?.id ?? null, voicecall: c.get('session').voicecall, session: c.get('session') });
  })
  // Coins need an account, so paying by phone does too; each address may start only a few calls.
  .post('/billing/init_phonecall', zValidator('json', initSchema, validationHook), async (c) => {
    requireUserId(c);
    if (c.get('session').voicecall) throw new ApiError(409, 'voicecall_active');
    const tries = await hit(c.env.DB, `phonecall:ip:${clientIp(c)}`, PHONE_INIT_WINDOW_SECONDS);
    if (tries.count > PHONE_INITS_PER_ADDRESS) throw new ApiError(429, 'too_many_attempts', undefined, { 'Retry-After': String(tries.retryAfter) });
    return startBilling(c, c.req.valid('json'), true);
  })
  // Hangs up the session's phone call (or its phone payment not yet connected): the call ends
  // here as on the phone line, and the session leaves voice-call mode.
  .post('/billing/end_phonecall', async (c) => {
    const sessionId = c.get('sessionId');
    const row = sessionId ? await latestPhoneBilling(c.env.DB, sessionId) : null;
    if (row) await endPhoneCall(c.env.DB, row);
    const session = { ...c.get('session'), voicecall: false, phonecall_payment_type_id: null, phonecall_product_id: null, phonecall_payment_name: null };
    return c.json({ status: row ? 'ended' : 'none', id: row?.id ?? null, session });
  })
  .use('/billing', requireUser)
  .use('/billing/*', requireUser)
  .get('/billing', async (c) => {
    const userId = requireUserId(c);
    const db = c.env.DB;
    const [types, products] = await db.batch([
      db.prepare('SELECT id, name, is_phonecall FROM payment_types ORDER BY position'),
      db.prepare('SELECT * FROM products ORDER BY payment_type_id, position'),
    ]);
    const productRows = products.results as unknown as ProductRow[];
    const paymentTypes = (types.results as { id: number; name: string; is_phonecall: number }[]).map((t) => ({
      id: t.id,
      name: t.name,
      isPhoneCall: t.is_phonecall === 1,
      products: productRows
        .filter((p) => p.payment_type_id === t.id)
        .map((p) => ({ id: p.id, name: p.name, currency: p.currency, amount: p.amount_cents / 100, coins: p.coins, isDefault: p.is_default === 1 })),
    }));
    const spent = await spentToday(db, userId);
    return c.json({
      paymentTypes,
      campaign: await campaignFor(db, userId, c.req.query('code')?.slice(0, 64)),
      limit: { daily: DAILY_LIMIT_CENTS / 100, remaining: Math.max(0, DAILY_LIMIT_CENTS - spent) / 100, currency: 'EUR' },
    });
  })
  .post('/billing/init', zValidator('json', initSchema, validationHook), (c) => startBilling(c, c.req.valid('json'), false))
  .get('/billing/status/:id{[0-9]{1,12}}', async (c) => {
    const row = await c.env.DB.prepare('SELECT id, status, coins FROM billings WHERE id = ? AND user_id = ?')
      .bind(Number(c.req.param('id')), requireUserId(c))
      .first();
    if (!row) throw new ApiError(404, 'not_found');
    return c.json(row);
  });
