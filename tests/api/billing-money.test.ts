import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type Member, registerMember } from './account-helpers';
import { Client, expectError, expectJson, req } from './helpers';

// Issue 9, money: the daily limit under a burst (phone calls count only once charged), a percent
// voucher on exactly one paid purchase, and the welcome offer paid exactly once.

const CARD = { paymenttypeid: 1 };
const now = () => Math.floor(Date.now() / 1000);
/** Bursts of 100 requests on a shared 2-core machine: a generous time limit (no assertion on time). */
const SLOW = 60_000;

async function coins(id: number): Promise<number> {
  return (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;
}

async function ledgerSum(id: number): Promise<number> {
  return (await env.DB.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ledger WHERE user_id = ?').bind(id).first<{ s: number }>())!.s;
}

async function ledgerRows(id: number, refLike: string) {
  return (await env.DB.prepare('SELECT amount, reason, ref FROM ledger WHERE user_id = ? AND ref LIKE ? ORDER BY id').bind(id, refLike).all<{ amount: number; reason: string; ref: string }>())
    .results;
}

interface Init {
  id: number;
  link: string;
  coins: number;
}

async function init(m: Member, body: Record<string, unknown>): Promise<Init> {
  return expectJson<Init>(await m.client.post('/api/billing/init', { ...CARD, ...body }), 200);
}

/** The sandbox checkout's buttons (its signed postback runs through applyPaymentEvent). */
async function sandbox(link: string, action: 'pay' | 'cancel' | 'fail'): Promise<string | null> {
  const bid = new URL(link, 'http://x').searchParams.get('bid')!;
  const res = await req('/billing/sandbox', { method: 'POST', body: new URLSearchParams({ bid, action }), redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('Location');
}

async function billingList(m: Member, query = '') {
  return expectJson<{
    campaign: { code: string; percent: number } | null;
    welcome: { percent: number; until: number } | null;
    limit: { remaining: number };
  }>(await m.client.get(`/api/billing${query}`), 200);
}

/** A member without the welcome offer (its bonus would mix into what a test counts). */
async function plainMember(): Promise<Member> {
  const m = await registerMember({ verified: true });
  await env.DB.prepare('DELETE FROM welcome_offers WHERE user_id = ?').bind(m.id).run();
  return m;
}

describe('daily spending limit (500 EUR)', () => {
  it('100 parallel inits of 85 EUR create exactly 5 billings; the rest get 422 billing_limit', async () => {
    const m = await plainMember();
    const results = await Promise.all(Array.from({ length: 100 }, () => m.client.post('/api/billing/init', { ...CARD, productid: 4 })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(95);
    for (const res of results.filter((r) => r.status === 422)) expect(((await res.json()) as { message: string }).message).toBe('billing_limit');
    const row = await env.DB.prepare("SELECT COUNT(*) AS n, SUM(amount_cents) AS cents FROM billings WHERE user_id = ? AND status = 'pending'").bind(m.id).first<{ n: number; cents: number }>();
    expect(row).toEqual({ n: 5, cents: 42_500 });
    // Paying them all stays within the limit; a sixth is refused afterwards as well.
    const links = await Promise.all(results.filter((r) => r.status === 200).map(async (r) => ((await r.json()) as Init).link));
    for (const link of links) await sandbox(link, 'pay');
    expect(await coins(m.id)).toBe(5_000);
    await expectError(await m.client.post('/api/billing/init', { ...CARD, productid: 4 }), 422, 'billing_limit');
    expect((await billingList(m)).limit.remaining).toBe(75);
  }, SLOW);

  it('a cancelled checkout frees its amount, a pending one holds it for 30 minutes only', async () => {
    const m = await plainMember();
    const first = await init(m, { productid: 4 });
    expect((await billingList(m)).limit.remaining).toBe(415);
    await sandbox(first.link, 'cancel');
    expect((await billingList(m)).limit.remaining).toBe(500);
    const second = await init(m, { productid: 4 });
    await env.DB.prepare('UPDATE billings SET created_at = ? WHERE id = ?').bind(now() - 31 * 60, second.id).run();
    expect((await billingList(m)).limit.remaining).toBe(500);
    // ...and the abandoned checkout can no longer be paid.
    expect(await sandbox(second.link, 'pay')).toBe(`/billing/back?result=billing.error&billingid=${second.id}`);
    expect(await coins(m.id)).toBe(0);
  }, SLOW);

  it('a phone payment counts while it is open and once it was charged; one hung up or expired does not', async () => {
    const m = await plainMember();
    const t = now();
    const phone = await env.DB.prepare(
      `INSERT INTO billings (user_id, session_id, payment_type_id, product_id, amount_cents, coins, currency, provider, is_phonecall, status, created_at, updated_at)
       VALUES (?, 'phone-test', 3, 8, 45000, 200, 'EUR', 'sandbox-phone', 1, 'pending', ?, ?) RETURNING id`,
    )
      .bind(m.id, t, t)
      .first<{ id: number }>();
    // Open: its amount is reserved, as a card checkout's is (it could be charged any moment).
    expect((await billingList(m)).limit.remaining).toBe(50);
    await expectError(await m.client.post('/api/billing/init', { ...CARD, productid: 4 }), 422, 'billing_limit');
    await init(m, { productid: 3 });
    expect((await billingList(m)).limit.remaining).toBe(5);
    await env.DB.prepare("UPDATE billings SET status = 'paid', paid_at = ? WHERE id = ?").bind(t, phone!.id).run();
    expect((await billingList(m)).limit.remaining).toBe(5);
    await expectError(await m.client.post('/api/billing/init', { ...CARD, productid: 1 }), 422, 'billing_limit');
    // A call hung up before it connected charged nothing and does not count.
    await env.DB.prepare("UPDATE billings SET status = 'cancelled', paid_at = NULL WHERE id = ?").bind(phone!.id).run();
    expect((await billingList(m)).limit.remaining).toBe(455);
    // Neither does one left open longer than the hold (it can no longer be charged).
    await env.DB.prepare("UPDATE billings SET status = 'pending', created_at = ? WHERE id = ?").bind(t - 31 * 60, phone!.id).run();
    expect((await billingList(m)).limit.remaining).toBe(455);
  }, SLOW);
});

describe('percent voucher (HALFPRICE)', () => {
  it('20 parallel purchases with code=HALFPRICE, all paid: exactly one gets the bonus, the ledger proves it', async () => {
    const m = await plainMember();
    const inits = await Promise.all(Array.from({ length: 20 }, () => m.client.post('/api/billing/init', { ...CARD, productid: 1, code: 'HALFPRICE' })));
    const bodies = await Promise.all(inits.map((r) => expectJson<Init>(r, 200)));
    // Only the billing that reserved the voucher promises the bonus.
    expect(bodies.map((b) => b.coins).sort((a, b) => a - b)).toEqual([...Array(19).fill(100), 150]);
    await Promise.all(bodies.map((b) => sandbox(b.link, 'pay')));
    expect(await ledgerRows(m.id, 'coupon:%')).toEqual([{ amount: 50, reason: 'coupon', ref: `coupon:HALFPRICE:${m.id}` }]);
    expect(await coins(m.id)).toBe(20 * 100 + 50);
    expect(await ledgerSum(m.id)).toBe(20 * 100 + 50);
    // Each billing reports what it credited.
    const statuses = await Promise.all(bodies.map(async (b) => expectJson<{ coins: number; status: string }>(await m.client.get(`/api/billing/status/${b.id}`), 200)));
    expect(statuses.every((s) => s.status === 'paid')).toBe(true);
    expect(statuses.map((s) => s.coins).sort((a, b) => a - b)).toEqual([...Array(19).fill(100), 150]);
    // Used up: the code is neither offered nor applied again.
    expect((await billingList(m, '?code=HALFPRICE')).campaign).toBeNull();
    const again = await init(m, { productid: 1, code: 'HALFPRICE' });
    expect(again.coins).toBe(100);
  }, SLOW);

  it('20 parallel purchases of the redeemed voucher paid at once: one bonus', async () => {
    const m = await plainMember();
    expect((await m.client.post('/api/coupons/redeem', { code: 'HALFPRICE' })).status).toBe(200);
    const bodies = await Promise.all(Array.from({ length: 20 }, async () => init(m, { productid: 1 })));
    await Promise.all(bodies.map((b) => sandbox(b.link, 'pay')));
    expect(await ledgerRows(m.id, 'coupon:%')).toHaveLength(1);
    expect(await coins(m.id)).toBe(2_050);
  }, SLOW);

  it('a cancelled or failed billing releases the voucher for the next purchase', async () => {
    const m = await plainMember();
    const first = await init(m, { productid: 2, code: 'HALFPRICE' });
    expect(first.coins).toBe(375);
    // Reserved: a second checkout meanwhile does not get it, and the picker does not offer it.
    expect((await init(m, { productid: 2, code: 'HALFPRICE' })).coins).toBe(250);
    expect((await billingList(m, '?code=HALFPRICE')).campaign).toBeNull();
    await sandbox(first.link, 'cancel');
    expect((await billingList(m, '?code=HALFPRICE')).campaign).toEqual({ code: 'HALFPRICE', percent: 50 });
    const second = await init(m, { productid: 2, code: 'HALFPRICE' });
    expect(second.coins).toBe(375);
    await sandbox(second.link, 'fail');
    const third = await init(m, { productid: 2, code: 'HALFPRICE' });
    expect(third.coins).toBe(375);
    await sandbox(third.link, 'pay');
    expect(await coins(m.id)).toBe(375);
  }, SLOW);
});

describe('welcome offer (+20% and a free video on the first purchase inside the countdown)', () => {
  it('the countdown starts on the server clock, whatever the client sends', async () => {
    const visitor = new Client();
    const res = await expectJson<{ incentive_tsp: number; voucher_percent: number }>(await visitor.post('/api/session/incentive_tsp', { incentive_tsp: 1 }), 200);
    expect(Math.abs(res.incentive_tsp - now())).toBeLessThanOrEqual(5);
    expect(res.voucher_percent).toBe(20);
    const m = await registerMember({ client: visitor, verified: true });
    const offer = (await billingList(m)).welcome;
    expect(offer?.percent).toBe(20);
    expect(offer!.until - res.incentive_tsp).toBe(15 * 60 + 60);
  }, SLOW);

  it('a sign-up after the countdown ran out gets no offer; a closed window pays no bonus', async () => {
    const visitor = new Client();
    const shown = await expectJson<{ session: { session_id: string } }>(await visitor.post('/api/session/incentive_tsp', { incentive_tsp: now() }), 200);
    await env.DB.prepare('UPDATE sessions SET incentive_tsp = ? WHERE id = ?').bind(now() - 17 * 60, shown.session.session_id).run();
    const late = await registerMember({ client: visitor, verified: true });
    expect((await billingList(late)).welcome).toBeNull();
    const m = await registerMember({ verified: true });
    await env.DB.prepare('UPDATE welcome_offers SET starts_at = starts_at - 2000, ends_at = ends_at - 2000 WHERE user_id = ?').bind(m.id).run();
    expect((await billingList(m)).welcome).toBeNull();
    const b = await init(m, { productid: 1 });
    expect(b.coins).toBe(100);
    await sandbox(b.link, 'pay');
    expect(await coins(m.id)).toBe(100);
    expect(await ledgerRows(m.id, 'welcome:%')).toEqual([]);
  }, SLOW);

  it('parallel payments of 20 billings inside the window pay the bonus exactly once, with the free video', async () => {
    const m = await registerMember({ verified: true });
    const list = await billingList(m);
    expect(list.welcome?.percent).toBe(20);
    const bodies = await Promise.all(Array.from({ length: 20 }, () => init(m, { productid: 1 })));
    // Each promises the bonus while the offer is open (what the picker shows).
    expect(bodies.every((b) => b.coins === 120)).toBe(true);
    await Promise.all(bodies.map((b) => sandbox(b.link, 'pay')));
    expect(await ledgerRows(m.id, 'welcome:%')).toEqual([{ amount: 20, reason: 'signup', ref: `welcome:${m.id}` }]);
    expect(await coins(m.id)).toBe(20 * 100 + 20);
    expect(await ledgerSum(m.id)).toBe(20 * 100 + 20);
    // The billings that lost the claim report the coins they credited.
    const statuses = await Promise.all(bodies.map(async (b) => expectJson<{ coins: number }>(await m.client.get(`/api/billing/status/${b.id}`), 200)));
    expect(statuses.map((s) => s.coins).sort((a, b) => a - b)).toEqual([...Array(19).fill(100), 120]);
    // Won: no longer offered.
    expect((await billingList(m)).welcome).toBeNull();
    expect((await init(m, { productid: 1 })).coins).toBe(100);

    // The free video waits in the member's coupons as a prize.
    const coupons = await expectJson<{ data: { code: string; type: string; prize: boolean; valid: boolean; used: boolean }[] }>(await m.client.get('/api/coupons'), 200);
    expect(coupons.data.filter((c) => c.code === 'WELCOMEVIDEO')).toEqual([expect.objectContaining({ type: 'VIDEO', prize: true, valid: true, used: false })]);
    const welcome = await expectJson<{ welcome: { claimed: boolean; open: boolean } }>(await m.client.get('/api/billing/welcome'), 200);
    expect(welcome.welcome).toMatchObject({ claimed: true, open: false });
  }, SLOW);

  it('the welcome bonus and a percent voucher add up on one purchase', async () => {
    const m = await registerMember({ verified: true });
    const b = await init(m, { productid: 2, code: 'HALFPRICE' });
    expect(b.coins).toBe(250 + 125 + 50);
    await sandbox(b.link, 'pay');
    expect(await coins(m.id)).toBe(425);
    expect((await ledgerRows(m.id, '%')).map((r) => r.amount).sort((x, y) => x - y)).toEqual([50, 125, 250]);
  }, SLOW);

  it('the free video of the welcome offer cannot be redeemed or signed up with by code', async () => {
    const m = await plainMember();
    await expectError(await m.client.post('/api/coupons/redeem', { code: 'WELCOMEVIDEO' }), 422, 'coupon_invalid');
    expect((await new Client().post('/api/register/coupon', { code: 'welcomevideo' })).status).toBe(422);
  }, SLOW);
});
