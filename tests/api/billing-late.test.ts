import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type Member, registerMember } from './account-helpers';
import { expectError, expectJson, req, uniqueIp } from './helpers';
import { billingSecret, SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/server/features/billing/provider';
import type { Bindings } from '../../src/server/env';

// Issue 24, money: a billing is paid at most once and only while it is open (pending, younger
// than 30 minutes, within the daily limit). A failed, cancelled or expired checkout can never be
// paid later; a provider's late 'paid' for it is recorded once for a refund and never credited.
// The 500 EUR in 24 hours hold for card and phone alike, in any order of starts, payments,
// cancels, late postbacks and replays.

const CARD = { paymenttypeid: 1 };
const PHONE = { paymenttypeid: 3, productid: 8 };
const now = () => Math.floor(Date.now() / 1000);
/** Bursts of many requests on a shared 2-core machine: a generous time limit (no assertion on time). */
const SLOW = 60_000;

interface Init {
  id: number;
  link: string;
  coins: number;
}

const coins = async (id: number) => (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;
const statusOf = async (id: number) => (await env.DB.prepare('SELECT status FROM billings WHERE id = ?').bind(id).first<{ status: string }>())!.status;
const bidOf = (link: string) => decodeURIComponent(new URL(link, 'http://x').searchParams.get('bid')!);

/** What the member paid (accepted payments) and what the ledger says they were credited for them. */
async function books(userId: number) {
  const paid = await env.DB.prepare("SELECT COALESCE(SUM(amount_cents), 0) AS cents, COUNT(*) AS n FROM billings WHERE user_id = ? AND status = 'paid'").bind(userId).first<{ cents: number; n: number }>();
  const credited = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND ref LIKE 'payment:%'").bind(userId).first<{ n: number }>();
  const sum = await env.DB.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ledger WHERE user_id = ?').bind(userId).first<{ s: number }>();
  return { paidCents: paid!.cents, paid: paid!.n, paymentRows: credited!.n, ledger: sum!.s, coins: await coins(userId) };
}

async function refunds(userId: number) {
  return (
    await env.DB.prepare('SELECT billing_id, reason, state FROM late_payments WHERE user_id = ? ORDER BY billing_id').bind(userId).all<{ billing_id: number; reason: string; state: string }>()
  ).results;
}

async function init(m: Member, productid: number, code?: string): Promise<Init> {
  return expectJson<Init>(await m.client.post('/api/billing/init', { ...CARD, productid, ...(code ? { code } : {}) }), 200);
}

/** The sandbox checkout's buttons: where the popup is sent back to. */
async function sandbox(link: string, action: 'pay' | 'cancel' | 'fail'): Promise<string | null> {
  const res = await req('/billing/sandbox', { method: 'POST', body: new URLSearchParams({ bid: bidOf(link), action }), redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('Location');
}

/** The phone line's buttons (start: the call connects and is charged). */
const line = (link: string, action: 'start' | 'end') => req('/billing/phone', { method: 'POST', body: new URLSearchParams({ bid: bidOf(link), action }), redirect: 'manual' });

/** A provider's signed postback, as a real processor would send it (late, replayed, out of order). */
async function postback(provider: 'sandbox' | 'sandbox-phone', billingId: number, status: 'paid' | 'cancelled' | 'failed', eventId = `late-${billingId}-${status}`) {
  const p = new SandboxProvider(billingSecret(env as unknown as Bindings), provider === 'sandbox-phone');
  const { body, signature } = await p.signedPostback({ billingId, status, eventId });
  return req(`/api/billing/callback/${provider}`, { method: 'POST', body, headers: { [SANDBOX_SIGNATURE_HEADER]: signature, 'Content-Type': 'application/json' } });
}

async function remaining(m: Member): Promise<number> {
  return (await expectJson<{ limit: { remaining: number } }>(await m.client.get('/api/billing'), 200)).limit.remaining;
}

/** A member without the welcome offer (its bonus would mix into what a test counts). */
async function plainMember(): Promise<Member> {
  const m = await registerMember({ verified: true });
  await env.DB.prepare('DELETE FROM welcome_offers WHERE user_id = ?').bind(m.id).run();
  return m;
}

describe('a billing that ended can never be paid later', () => {
  it('fail then pay, cancel then pay, and an expired checkout paid twice: no coins, the billing keeps its end, the way back says so', async () => {
    const m = await plainMember();
    const failed = await init(m, 2);
    expect(await sandbox(failed.link, 'fail')).toBe(`/billing/back?result=billing.error&billingid=${failed.id}`);
    expect(await sandbox(failed.link, 'pay')).toBe(`/billing/back?result=billing.error&billingid=${failed.id}`);
    const cancelled = await init(m, 2);
    expect(await sandbox(cancelled.link, 'cancel')).toBe(`/billing/back?result=billing.cancel&billingid=${cancelled.id}`);
    expect(await sandbox(cancelled.link, 'pay')).toBe(`/billing/back?result=billing.cancel&billingid=${cancelled.id}`);
    const expired = await init(m, 2);
    await env.DB.prepare('UPDATE billings SET created_at = ? WHERE id = ?').bind(now() - 31 * 60, expired.id).run();
    expect(await sandbox(expired.link, 'pay')).toBe(`/billing/back?result=billing.error&billingid=${expired.id}`);
    expect(await sandbox(expired.link, 'pay')).toBe(`/billing/back?result=billing.error&billingid=${expired.id}`);
    expect([await statusOf(failed.id), await statusOf(cancelled.id), await statusOf(expired.id)]).toEqual(['failed', 'cancelled', 'failed']);
    expect(await books(m.id)).toEqual({ paidCents: 0, paid: 0, paymentRows: 0, ledger: 0, coins: 0 });
    // The checkout page no longer offers to pay them, and says how they ended.
    const pages = await Promise.all([failed, cancelled, expired].map(async (b) => (await req(b.link)).text()));
    for (const page of pages) expect(page).not.toContain('data-action="sandbox-pay"');
    expect(pages.map((p) => /data-testid="checkout-ended">([^<]*)</.exec(p)?.[1])).toEqual([
      'This payment failed and can no longer be paid. Nothing was charged.',
      'This payment was cancelled and can no longer be paid. Nothing was charged.',
      'This payment failed and can no longer be paid. Nothing was charged.',
    ]);
    // One left open past its 30 minutes is not offered for payment either.
    const stale = await init(m, 1);
    await env.DB.prepare('UPDATE billings SET created_at = ? WHERE id = ?').bind(now() - 31 * 60, stale.id).run();
    const stalePage = await (await req(stale.link, { headers: { 'Accept-Language': 'de' } })).text();
    expect(stalePage).not.toContain('data-action="sandbox-pay"');
    expect(stalePage).toContain('Dieser Bezahlvorgang ist abgelaufen (nach 30 Minuten) und kann nicht mehr bezahlt werden.');
    // A paid checkout paid again is simply paid (one credit).
    const ok = await init(m, 2);
    expect(await sandbox(ok.link, 'pay')).toBe(`/billing/back?result=billing.success&billingid=${ok.id}`);
    expect(await sandbox(ok.link, 'pay')).toBe(`/billing/back?result=billing.success&billingid=${ok.id}`);
    expect(await books(m.id)).toMatchObject({ paid: 1, paymentRows: 1, coins: 250 });
  }, SLOW);

  it("a provider's late 'paid' for a failed, cancelled or expired billing is recorded once for a refund, never credited, also replayed in parallel", async () => {
    const m = await plainMember();
    const failed = await init(m, 4);
    await sandbox(failed.link, 'fail');
    const cancelled = await init(m, 4);
    await sandbox(cancelled.link, 'cancel');
    // An expired checkout with a voucher reserved: the late payment neither credits nor uses it up.
    const expired = await init(m, 2, 'HALFPRICE');
    expect(expired.coins).toBe(375);
    await env.DB.prepare('UPDATE billings SET created_at = ? WHERE id = ?').bind(now() - 31 * 60, expired.id).run();
    const ids = [failed.id, cancelled.id, expired.id];
    const answers = await Promise.all(ids.flatMap((id) => Array.from({ length: 10 }, (_, i) => postback('sandbox', id, 'paid', `late-${id}-${i}`))));
    for (const res of answers) expect(await expectJson(res, 200)).toEqual({ ok: true, status: 'refund_due' });
    expect(await books(m.id)).toEqual({ paidCents: 0, paid: 0, paymentRows: 0, ledger: 0, coins: 0 });
    expect(await refunds(m.id)).toEqual([
      { billing_id: failed.id, reason: 'failed', state: 'refund_due' },
      { billing_id: cancelled.id, reason: 'cancelled', state: 'refund_due' },
      { billing_id: expired.id, reason: 'expired', state: 'refund_due' },
    ]);
    // The expired checkout is over now; its voucher is free for the next purchase.
    expect(await statusOf(expired.id)).toBe('failed');
    expect((await init(m, 2, 'HALFPRICE')).coins).toBe(375);
    // A late 'cancelled' after the refund was recorded changes nothing either.
    expect(await expectJson(await postback('sandbox', expired.id, 'cancelled'), 200)).toMatchObject({ ok: true });
    expect(await statusOf(expired.id)).toBe('failed');
    // The operator sees the three in the refund queue and marks each refunded once.
    const ops = (path: string, method = 'GET', token = 'test-ops-token') => req(`/api/ops${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    expect((await ops('/late-payments', 'GET', 'wrong')).status).toBe(401);
    const queue = (await expectJson<{ data: { billing_id: number; amount_cents: number; reason: string }[] }>(await ops('/late-payments'), 200)).data;
    expect(queue.filter((r) => ids.includes(r.billing_id)).map((r) => r.reason)).toEqual(['failed', 'cancelled', 'expired']);
    expect(await expectJson(await ops(`/late-payments/${failed.id}/refunded`, 'POST'), 200)).toEqual({ billing_id: failed.id, state: 'refunded' });
    await expectError(await ops(`/late-payments/${failed.id}/refunded`, 'POST'), 404, 'not_found');
    await expectError(await ops('/late-payments/x/refunded', 'POST'), 422, 'validation_failed');
    const after = (await expectJson<{ data: { billing_id: number }[] }>(await ops('/late-payments'), 200)).data.map((r) => r.billing_id);
    expect(after).not.toContain(failed.id);
    expect(after).toContain(cancelled.id);
    expect((await refunds(m.id))[0]).toEqual({ billing_id: failed.id, reason: 'failed', state: 'refunded' });
  }, SLOW);

  it('the way back tells what the billing really ended as: a late payment is no success but a refund (en and de)', async () => {
    const m = await plainMember();
    const late = await init(m, 2);
    await sandbox(late.link, 'cancel');
    await postback('sandbox', late.id, 'paid');
    const back = async (client: Member['client'], id: number, lang = 'en') => {
      client.jar.set('i18n_redirected', lang);
      const html = await (await client.get(`/billing/back?result=billing.success&billingid=${id}`)).text();
      return { result: /data-result="([^"]+)"/.exec(html)?.[1], html };
    };
    const en = await back(m.client, late.id);
    expect(en.result).toBe('billing.error');
    expect(en.html).toContain('Payment arrived too late');
    expect(en.html).toContain('no coins were added. The amount will be refunded to you');
    const de = await back(m.client, late.id, 'de');
    expect(de.html).toContain('Zahlung kam zu spät');
    // A cancelled one says cancelled, a paid one success; an open one keeps the provider's word.
    const cancelled = await init(m, 1);
    await sandbox(cancelled.link, 'cancel');
    expect((await back(m.client, cancelled.id)).result).toBe('billing.cancel');
    const open = await init(m, 1);
    expect((await back(m.client, open.id)).result).toBe('billing.success');
    await sandbox(open.link, 'fail');
    expect((await back(m.client, open.id)).result).toBe('billing.error');
    // Another member's billing reveals nothing: the page shows what the link says.
    const other = await plainMember();
    expect((await back(other.client, late.id)).result).toBe('billing.success');
  }, SLOW);

  it('a phone payment hung up before it connected, or expired, is never charged by a late connect or postback', async () => {
    const m = await plainMember();
    const hungUp = await expectJson<Init>(await m.client.post('/api/billing/init_phonecall', PHONE), 200);
    await expectJson(await m.client.post('/api/billing/end_phonecall'), 200);
    expect(await statusOf(hungUp.id)).toBe('cancelled');
    expect(await expectJson(await postback('sandbox-phone', hungUp.id, 'paid'), 200)).toEqual({ ok: true, status: 'refund_due' });
    const stale = await expectJson<Init>(await m.client.post('/api/billing/init_phonecall', PHONE), 200);
    await env.DB.prepare('UPDATE billings SET created_at = ? WHERE id = ?').bind(now() - 31 * 60, stale.id).run();
    expect((await line(stale.link, 'start')).status).toBe(303);
    expect(await statusOf(stale.id)).toBe('failed');
    expect(await expectJson(await postback('sandbox-phone', stale.id, 'paid'), 200)).toEqual({ ok: true, status: 'refund_due' });
    expect(await books(m.id)).toEqual({ paidCents: 0, paid: 0, paymentRows: 0, ledger: 0, coins: 0 });
    expect((await refunds(m.id)).map((r) => r.reason)).toEqual(['cancelled', 'failed']);
    expect(await expectJson<{ status: string; voicecall: boolean }>(await m.client.get('/api/billing/check_phonecall'), 200)).toMatchObject({ voicecall: false });
  }, SLOW);
});

describe('the daily limit (500 EUR in 24 hours) holds at payment time, for every way to pay', () => {
  it('8 checkouts of 85 EUR started and cancelled, then all paid (page and late postbacks): nothing credited, the limit is whole', async () => {
    const m = await plainMember();
    const started: Init[] = [];
    for (let i = 0; i < 8; i++) {
      const b = await init(m, 4);
      await sandbox(b.link, 'cancel');
      started.push(b);
    }
    await Promise.all(started.flatMap((b) => [sandbox(b.link, 'pay'), postback('sandbox', b.id, 'paid'), postback('sandbox', b.id, 'paid')]));
    expect(await books(m.id)).toMatchObject({ paidCents: 0, coins: 0 });
    expect(await refunds(m.id)).toHaveLength(8);
    expect(await remaining(m)).toBe(500);
    // The whole limit is still there: five more fit, the sixth does not.
    const five = await Promise.all(Array.from({ length: 5 }, () => init(m, 4)));
    await expectError(await m.client.post('/api/billing/init', { ...CARD, productid: 4 }), 422, 'billing_limit');
    await Promise.all(five.map((b) => sandbox(b.link, 'pay')));
    expect(await books(m.id)).toEqual({ paidCents: 42_500, paid: 5, paymentRows: 5, ledger: 5_000, coins: 5_000 });
  }, SLOW);

  it('phone payments are reserved while open: five opened, then card checkouts up to the limit, all paid in a burst with replays: 439.50 EUR, not 524.50', async () => {
    const m = await plainMember();
    const phones: Init[] = [];
    for (let i = 0; i < 5; i++) phones.push(await expectJson<Init>(await m.client.post('/api/billing/init_phonecall', PHONE, { headers: { 'CF-Connecting-IP': uniqueIp() } }), 200));
    expect(await remaining(m)).toBe(400.5);
    const cards = await Promise.all(Array.from({ length: 30 }, () => m.client.post('/api/billing/init', { ...CARD, productid: 4 })));
    expect(cards.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of cards.filter((r) => r.status !== 200)) await expectError(r, 422, 'billing_limit');
    const opened = await Promise.all(cards.filter((r) => r.status === 200).map((r) => expectJson<Init>(r, 200)));
    // Everything is paid at once, each twice, with replayed postbacks of the phone line.
    await Promise.all([
      ...opened.flatMap((b) => [sandbox(b.link, 'pay'), sandbox(b.link, 'pay'), postback('sandbox', b.id, 'paid')]),
      ...phones.flatMap((p) => [line(p.link, 'start'), line(p.link, 'start'), postback('sandbox-phone', p.id, 'paid')]),
    ]);
    expect(await books(m.id)).toEqual({ paidCents: 43_950, paid: 9, paymentRows: 9, ledger: 4 * 1000 + 5 * 200, coins: 5_000 });
    expect(await refunds(m.id)).toEqual([]);
    await expectError(await m.client.post('/api/billing/init', { ...CARD, productid: 4 }), 422, 'billing_limit');
  }, SLOW);

  it('100 parallel starts of card and phone payments reserve at most 500 EUR; paying and cancelling them in any order never passes it', async () => {
    const m = await plainMember();
    const starts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 3 === 0
          ? m.client.post('/api/billing/init_phonecall', PHONE, { headers: { 'CF-Connecting-IP': uniqueIp() } })
          : m.client.post('/api/billing/init', { ...CARD, productid: i % 3 === 1 ? 4 : 3 }),
      ),
    );
    for (const r of starts.filter((r) => r.status !== 200)) await expectError(r, 422, 'billing_limit');
    const open = await env.DB.prepare("SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM billings WHERE user_id = ? AND status = 'pending'").bind(m.id).first<{ cents: number }>();
    expect(open!.cents).toBeLessThanOrEqual(50_000);
    const opened = await Promise.all(starts.filter((r) => r.status === 200).map((r) => expectJson<Init>(r, 200)));
    // Every other one is cancelled, in the same burst as all the payments and their replays.
    await Promise.all(
      opened.flatMap((b, i) => {
        const phone = b.link.startsWith('/billing/phone');
        const pay = () => (phone ? line(b.link, 'start') : sandbox(b.link, 'pay'));
        const cancel = () => (phone ? postback('sandbox-phone', b.id, 'cancelled') : sandbox(b.link, 'cancel'));
        return i % 2 ? [cancel(), pay(), postback(phone ? 'sandbox-phone' : 'sandbox', b.id, 'paid')] : [pay(), pay()];
      }),
    );
    const after = await books(m.id);
    expect(after.paidCents).toBeLessThanOrEqual(50_000);
    expect(after.paymentRows).toBe(after.paid);
    expect(after.coins).toBe(after.ledger);
    // Each one only paid is paid; each one cancelled and paid at once ended paid, or cancelled with its 'paid' recorded for a refund.
    const refunded = new Set((await refunds(m.id)).map((r) => r.billing_id));
    for (const [i, b] of opened.entries()) {
      const status = await statusOf(b.id);
      if (i % 2 === 0) expect(status).toBe('paid');
      else expect(status === 'paid' ? !refunded.has(b.id) : status === 'cancelled' && refunded.has(b.id), `${b.id} ${status}`).toBe(true);
    }
    expect(refunded.size + after.paid).toBe(opened.length);
    expect(await remaining(m)).toBe((50_000 - after.paidCents) / 100);
  }, SLOW);

  it('a payment counts from when it was paid, and is checked against the limit again when it is paid', async () => {
    const m = await plainMember();
    const t = now();
    // Begun 24 h 10 min ago and paid 15 minutes later: it counts for 24 hours from its payment.
    await env.DB.prepare(
      `INSERT INTO billings (user_id, payment_type_id, product_id, amount_cents, coins, currency, provider, status, created_at, updated_at, paid_at)
       VALUES (?, 1, 4, 8500, 1000, 'EUR', 'sandbox', 'paid', ?, ?, ?)`,
    )
      .bind(m.id, t - 86_400 - 600, t - 86_400 + 300, t - 86_400 + 300)
      .run();
    expect(await remaining(m)).toBe(415);
    // A checkout open under the limit, and meanwhile 375 EUR arrive paid by another way (a
    // booking outside this API): its payment would pass 500 EUR, so it is refused and refunded.
    const open = await init(m, 3);
    await env.DB.prepare(
      `INSERT INTO billings (user_id, payment_type_id, product_id, amount_cents, coins, currency, provider, status, created_at, updated_at, paid_at)
       VALUES (?, 1, 4, 37500, 0, 'EUR', 'sandbox', 'paid', ?, ?, ?)`,
    )
      .bind(m.id, t, t, t)
      .run();
    expect(await sandbox(open.link, 'pay')).toBe(`/billing/back?result=billing.error&billingid=${open.id}`);
    expect(await statusOf(open.id)).toBe('failed');
    expect(await refunds(m.id)).toEqual([{ billing_id: open.id, reason: 'limit', state: 'refund_due' }]);
    expect(await coins(m.id)).toBe(0);
  }, SLOW);
});
