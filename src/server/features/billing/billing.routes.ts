import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { clientIp, requireUser, requireUserId } from '../session/session.service';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { hit } from '../../lib/throttle.repo';
import { owedBy } from '../../lib/reversals.repo';
import { validationHook } from '../../lib/validation';
import { ensureSession, updateSessionRow } from '../session/session.service';
import { WELCOME_BONUS_PERCENT } from '../../../shared/constants';
import { percentBonus } from '../../../shared/coupons';
import { claimVoucher, dropVoucher, findBillingStatus, findCampaign, findWelcomeOffer, insertBillingWithinLimit, spentToday } from './billing.repo';
import { applyPaymentEvent, catalog, DAILY_LIMIT_CENTS, openWelcomeOffer, PHONE_INIT_WINDOW_SECONDS, PHONE_INITS_PER_ADDRESS } from './billing.service';
import { findCheckoutProduct } from './catalog.repo';
import { endPhoneCall, latestPhoneBilling, phoneCallState } from './phone.repo';
import { providerFor } from './provider';
import type { BillingInitAnswer, BillingListAnswer, CallbackAnswer, BillingStatusAnswer, PhoneCheckAnswer, PhoneEndAnswer, WelcomeAnswer } from '../../../shared/api';


const initSchema = z.object({
  paymenttypeid: z.coerce.number({ error: 'required' }).int('required').positive('required'),
  productid: z.coerce.number({ error: 'required' }).int('required').positive('required'),
  code: z.string().trim().max(64, 'too_long').optional(),
});

/** The member's active percent voucher (bonus coins on the next purchase), if any. */
async function campaignFor(db: D1Database, userId: number, code?: string) {
  const row = await findCampaign(db, userId, code ?? null, nowSeconds());
  return row ? { code: row.code, percent: row.value } : null;
}

async function product(db: D1Database, paymentTypeId: number, productId: number) {
  const row = await findCheckoutProduct(db, paymentTypeId, productId);
  if (!row) throw new ApiError(422, 'validation_failed', { productid: ['product_invalid'] });
  return row;
}

async function startBilling(c: Context<AppEnv>, body: z.infer<typeof initSchema>, phone: boolean) {
  const db = c.env.DB;
  const user = c.get('user');
  const p = await product(db, body.paymenttypeid, body.productid);
  if (Boolean(p.is_phonecall) !== phone) throw new ApiError(422, 'validation_failed', { paymenttypeid: ['payment_type_invalid'] });
  const now = nowSeconds();
  // Bonuses apply to coin packages, not to phone calls (the picker shows none there either).
  const campaign = user && !phone ? await campaignFor(db, user.id, body.code) : null;
  const welcome = user && !phone ? await openWelcomeOffer(db, user.id, now) : null;
  const voucherCoins = campaign ? percentBonus(p.coins, campaign.percent) : 0;
  const welcomeCoins = welcome ? percentBonus(p.coins, welcome.percent) : 0;
  const sessionId = await ensureSession(c);
  // The daily limit is reserved by the insert itself (see insertBillingWithinLimit).
  let billing = await insertBillingWithinLimit(
    db,
    {
      userId: user?.id ?? null,
      sessionId,
      paymentTypeId: p.payment_type_id,
      productId: p.id,
      amountCents: p.amount_cents,
      coins: p.coins + voucherCoins + welcomeCoins,
      voucherCoins,
      welcomeCoins,
      currency: p.currency,
      provider: p.provider,
      phone,
      couponCode: campaign?.code ?? null,
      now,
    },
    DAILY_LIMIT_CENTS,
  );
  if (!billing) throw new ApiError(422, 'billing_limit');
  // The voucher is reserved for this billing; a parallel billing that got it first leaves this
  // one with the coins it will really credit.
  if (user && campaign && !(await claimVoucher(db, user.id, campaign.code, billing.id, now))) billing = (await dropVoucher(db, billing.id)) ?? billing;
  const coins = billing.coins;
  const provider = providerFor(c.env, p.provider);
  if (!provider) throw new ApiError(503, 'billing.error');
  const link = await provider.checkoutUrl({ id: billing.id, amountCents: p.amount_cents, currency: p.currency, coins, productName: p.name }, new URL(c.req.url).origin);
  if (phone) {
    await updateSessionRow(c, { phonecall_payment_type_id: p.payment_type_id, phonecall_product_id: p.id, phonecall_payment_name: p.type_name });
  }
  return c.json<BillingInitAnswer>({ link, id: billing.id, coins });
}

/** Provider postbacks: authenticated by their signature, not by cookies (mounted before CSRF). */
export const billingCallbackRoutes = new Hono<AppEnv>().post('/callback/:provider', async (c) => {
  const name = c.req.param('provider');
  const provider = providerFor(c.env, name);
  if (!provider) throw new ApiError(404, 'not_found');
  const event = await provider.verifyCallback(c.req.raw);
  if (!event) throw new ApiError(403, 'invalid_signature');
  const { status } = await applyPaymentEvent(c.env, provider.name, event, (p) => c.executionCtx.waitUntil(p));
  return c.json<CallbackAnswer>({ ok: true, status });
});

export const billingRoutes = new Hono<AppEnv>()
  // Only the logged-in member's own phone payment in this browser session counts.
  .get('/check_phonecall', async (c) => {
    const sessionId = c.get('sessionId');
    const row = sessionId ? await latestPhoneBilling(c.env.DB, sessionId, c.get('user')?.id ?? null) : null;
    const state = row ? phoneCallState(row) : 'none';
    const status = state === 'pending' || state === 'active' || state === 'none' ? state : 'ended';
    return c.json<PhoneCheckAnswer>({ status, id: row?.id ?? null, voicecall: c.get('session').voicecall, session: c.get('session') });
  })
  // Coins need an account, so paying by phone does too; each address may start only a few calls.
  .post('/init_phonecall', zValidator('json', initSchema, validationHook), async (c) => {
    requireUserId(c);
    if (c.get('session').voicecall) throw new ApiError(409, 'voicecall_active');
    const tries = await hit(c.env.DB, `phonecall:ip:${clientIp(c)}`, PHONE_INIT_WINDOW_SECONDS);
    if (tries.count > PHONE_INITS_PER_ADDRESS) throw new ApiError(429, 'too_many_attempts', undefined, { 'Retry-After': String(tries.retryAfter) });
    return startBilling(c, c.req.valid('json'), true);
  })
  // Hangs up the session's phone call (or its phone payment not yet connected): the call ends
  // here as on the phone line, and the session leaves voice-call mode.
  .post('/end_phonecall', async (c) => {
    const sessionId = c.get('sessionId');
    const row = sessionId ? await latestPhoneBilling(c.env.DB, sessionId, c.get('user')?.id ?? null) : null;
    if (row) await endPhoneCall(c.env.DB, row);
    // Voice-call mode left behind by another member's call in this browser ends here too (their call runs on).
    else if (c.get('session').voicecall || c.get('session').phonecall_payment_type_id !== null) {
      await updateSessionRow(c, { voicecall: 0, phonecall_payment_type_id: null, phonecall_product_id: null, phonecall_payment_name: null });
    }
    const session = { ...c.get('session'), voicecall: false, phonecall_payment_type_id: null, phonecall_product_id: null, phonecall_payment_name: null };
    return c.json<PhoneEndAnswer>({ status: row ? 'ended' : 'none', id: row?.id ?? null, session });
  })
  .use('/', requireUser)
  .use('/*', requireUser)
  .get('/', async (c) => {
    const userId = c.var.member.id;
    const db = c.env.DB;
    const paymentTypes = await catalog(db);
    const now = nowSeconds();
    const spent = await spentToday(db, userId, now);
    return c.json<BillingListAnswer>({
      paymentTypes,
      campaign: await campaignFor(db, userId, c.req.query('code')?.slice(0, 64)),
      // The welcome offer while it can be won: the coins shown include it (coin packages only).
      welcome: await openWelcomeOffer(db, userId, now),
      limit: { daily: DAILY_LIMIT_CENTS / 100, remaining: Math.max(0, DAILY_LIMIT_CENTS - spent) / 100, currency: 'EUR' },
      owed: await owedBy(db, userId),
    });
  })
  .post('/init', zValidator('json', initSchema, validationHook), (c) => startBilling(c, c.req.valid('json'), false))
  // The welcome dialog's view of the offer: open (percent, until), won (billing_id) or none.
  .get('/welcome', async (c) => {
    const userId = c.var.member.id;
    const offer = await findWelcomeOffer(c.env.DB, userId);
    return c.json<WelcomeAnswer>({
      welcome: offer
        ? { percent: WELCOME_BONUS_PERCENT, starts_at: offer.starts_at, ends_at: offer.ends_at, open: (await openWelcomeOffer(c.env.DB, userId, nowSeconds())) !== null, claimed: offer.billing_id !== null }
        : null,
    });
  })
  .get('/status/:id{[0-9]{1,12}}', async (c) => {
    const row = await findBillingStatus(c.env.DB, Number(c.req.param('id')), c.var.member.id);
    if (!row) throw new ApiError(404, 'not_found');
    return c.json<BillingStatusAnswer>(row);
  });
