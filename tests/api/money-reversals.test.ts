import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/server/features/billing/provider';
import { performerPart, spend } from '../../src/server/lib/ledger.repo';
import { PAYOUT_MIN_COINS, type StudioPayouts } from '../../src/shared/payouts';
import { performerOf } from './chat-helpers';
import { expectError, expectJson, req } from './helpers';
import { booksHold } from './ledger-books';
import { operator } from './operator-helpers';
import { buyer, paidVideos, purchaseCount } from './store-helpers';

// Money going back and out (issue 29 points 5 and 6): an operator refunds a purchase or a chat
// (coins back, the performer's share reversed), a provider's chargeback (signed, once however
// often and at once it comes) takes the coins back and leaves what was spent owed, the member
// locked until a payment settles it, performers' shares reversed where not paid out; payouts are
// requested in the studio and paid in a batch with a CSV statement. The books hold after each.

const SHOW = 207;
const balanceOf = async (account: string) => (await env.DB.prepare('SELECT balance FROM ledger_accounts WHERE account = ?').bind(account).first<{ balance: number }>())?.balance ?? 0;
const coinsOf = async (id: number) => (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;
const refsOf = async (like: string) => (await env.DB.prepare('SELECT ref, amount, counter FROM ledger WHERE ref LIKE ? ORDER BY id').bind(like).all<{ ref: string; amount: number; counter: string }>()).results;

/** A paid sandbox billing of `coins` for member `userId` (through the signed postback, as a processor pays). */
async function paid(userId: number, coins: number): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const row = await env.DB.prepare(
    `INSERT INTO billings (user_id, payment_type_id, product_id, amount_cents, coins, currency, provider, created_at, updated_at) VALUES (?, 1, 1, 1000, ?, 'EUR', 'sandbox', ?, ?) RETURNING id`,
  )
    .bind(userId, coins, now, now)
    .first<{ id: number }>();
  expect((await postback(row!.id, 'paid')).status).toBe(200);
  return row!.id;
}

async function postback(billingId: number, status: 'paid' | 'chargeback', eventId = `evt-${billingId}-${status}`): Promise<Response> {
  const { body, signature } = await new SandboxProvider(env.PASSWORD_PEPPER ?? '').signedPostback({ billingId, status, eventId });
  return req('/api/billing/callback/sandbox', { method: 'POST', body, headers: { [SANDBOX_SIGNATURE_HEADER]: signature, 'Content-Type': 'application/json' } });
}

describe('refunds, chargebacks and payouts through the ledger', () => {
  it('an operator refunds a purchase (coins back, the share taken from the performer, the item no longer owned) and an ended chat, once; a running chat or a bad body is refused', async () => {
    const op = await operator();
    const [v] = await paidVideos(1);
    const m = await buyer(1000);
    expect((await m.client.post(`/api/videos/buy/${v.ccid}/1`, { use_voucher: 0 })).status).toBe(200);
    const purchase = await env.DB.prepare('SELECT id FROM purchases WHERE user_id = ?').bind(m.id).first<{ id: number }>();
    const perfBefore = await balanceOf(`performer:${v.show_id}`);
    const refund = (body: unknown) => op.client.post('/api/operator/refunds', body);
    for (const bad of [{}, { kind: 'purchase', id: purchase!.id }, { kind: 'x', id: 1, reason: 'because' }, { kind: 'purchase', id: -1, reason: 'because' }]) await expectError(await refund(bad), 422, 'validation_failed');
    const both = await Promise.all([0, 1].map(() => refund({ kind: 'purchase', id: purchase!.id, reason: 'Did not play' })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await coinsOf(m.id)).toBe(1000);
    expect(await balanceOf(`performer:${v.show_id}`)).toBe(perfBefore - performerPart(v.price));
    expect(await purchaseCount(m.id)).toBe(0);
    expect((await refsOf(`refund:purchase:video:${v.id}:${m.id}%`)).map((r) => r.counter)).toEqual([`performer:${v.show_id}`, 'house']);

    // An ended chat of three paid minutes: all of it back.
    const sid = `refund-${m.id}`;
    await env.DB.prepare("INSERT INTO chat_sessions (id, show_id, user_id, visitor, nick, type, state, price, created_at) VALUES (?, ?, ?, 'v', 'nick', 'private', 'active', 30, 0)").bind(sid, SHOW, m.id).run();
    for (const minute of [1, 2, 3]) expect((await spend(env.DB, { userId: m.id, showId: SHOW, amount: 30, reason: 'chat', ref: `chat:${sid}:${minute}` })).ok).toBe(true);
    await expectError(await refund({ kind: 'chat', id: sid, reason: 'Stream froze' }), 409, 'chat_running');
    await env.DB.prepare("UPDATE chat_sessions SET state = 'ended' WHERE id = ?").bind(sid).run();
    await expectJson(await refund({ kind: 'chat', id: sid, reason: 'Stream froze' }), 200);
    expect(await coinsOf(m.id)).toBe(1000);
    await expectError(await refund({ kind: 'chat', id: sid, reason: 'Stream froze' }), 409, 'already_refunded');
    const trail = await env.DB.prepare("SELECT action, reason FROM audit_log WHERE action LIKE 'refund.%' AND actor_id = ? ORDER BY id").bind(op.id).all();
    expect(trail.results).toEqual([
      { action: 'refund.purchase', reason: 'Did not play' },
      { action: 'refund.chat', reason: 'Stream froze' },
    ]);
    await booksHold();
  });

  it('a chargeback, 20 at once: the coins back once, what was spent owed and the member locked, the performer share reversed where unpaid; a payment settles it', async () => {
    const m = await buyer(0);
    const billing = await paid(m.id, 500);
    expect(await coinsOf(m.id)).toBe(500);
    // 300 of the 500 spent at a show before the bank takes the payment back.
    expect((await spend(env.DB, { userId: m.id, showId: SHOW, amount: 300, reason: 'tip', ref: `tip:cb-${m.id}:1` })).ok).toBe(true);
    const perfBefore = await balanceOf(`performer:${SHOW}`);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postback(billing, 'chargeback')));
    const statuses = await Promise.all(answers.map(async (r) => ((await r.json()) as { status: string }).status));
    expect(statuses.filter((s) => s === 'charged_back')).toHaveLength(1);
    expect(new Set(statuses)).toEqual(new Set(['charged_back', 'duplicate']));
    expect(await coinsOf(m.id)).toBe(0);
    expect(await refsOf(`chargeback:payment:sandbox:${billing}`)).toEqual([{ ref: `chargeback:payment:sandbox:${billing}`, amount: -200, counter: 'payments' }]);
    // The performer's share of the 300 spent comes back from their unpaid earnings; the house's part stays owed.
    const share = performerPart(300);
    expect(await balanceOf(`performer:${SHOW}`)).toBe(perfBefore - share);
    expect(await balanceOf(`owed:${m.id}`)).toBe(-(300 - share));
    // Locked: no spending while owed (and nothing changes).
    await env.DB.prepare('UPDATE users SET coins = coins').run();
    expect((await spend(env.DB, { userId: m.id, showId: SHOW, amount: 1, reason: 'tip', ref: `tip:cb-${m.id}:2` })).ok).toBe(false);
    await booksHold();
    // The next payment settles the debt first.
    await paid(m.id, 1000);
    expect(await balanceOf(`owed:${m.id}`)).toBe(0);
    expect(await coinsOf(m.id)).toBe(1000 - (300 - share));
    expect((await spend(env.DB, { userId: m.id, showId: SHOW, amount: 1, reason: 'tip', ref: `tip:cb-${m.id}:3` })).ok).toBe(true);
    // A chargeback of a billing that was never paid changes nothing.
    const unpaid = await env.DB.prepare("INSERT INTO billings (user_id, payment_type_id, product_id, amount_cents, coins, currency, provider, created_at, updated_at) VALUES (?, 1, 1, 1000, 50, 'EUR', 'sandbox', 0, 0) RETURNING id").bind(m.id).first<{ id: number }>();
    expect(((await (await postback(unpaid!.id, 'chargeback')).json()) as { status: string }).status).toBe('not_paid');
    await booksHold();
  });

  it('payouts: the studio requests at least the minimum and at most what is payable, one at a time; disputed shares (members who owe) are not payable; an operator pays a batch (ledger to payouts, CSV statement)', async () => {
    const op = await operator();
    const performer = await performerOf(SHOW);
    const show = async () => expectJson<StudioPayouts>(await performer.get('/api/studio/payouts'), 200);
    const tip = async (userId: number, amount: number, n: number) => expect((await spend(env.DB, { userId, showId: SHOW, amount, reason: 'tip', ref: `tip:payout-${userId}:${n}` })).ok).toBe(true);
    const start = await show();
    // A member in good standing tips 4000; another tips 1000 twice, the second paid by a payment later charged back.
    const good = await buyer(0);
    await paid(good.id, 5000);
    await tip(good.id, 4000, 1);
    const bad = await buyer(0);
    await paid(bad.id, 1000);
    await tip(bad.id, 1000, 1);
    const charged = await paid(bad.id, 1000);
    await tip(bad.id, 1000, 2);
    expect((await show()).balance).toBe(start.balance + performerPart(4000) + 2 * performerPart(1000));
    await postback(charged, 'chargeback');
    // The second tip's share is reversed; the first stays in the earnings but is disputed while the member owes.
    const now = await show();
    expect(now.balance).toBe(start.balance + performerPart(4000) + performerPart(1000));
    expect(now.disputed).toBe(performerPart(1000));
    expect(now.payable).toBe(now.balance - now.disputed);
    expect(now.by_day.find((d) => d.reason === 'tip')!.coins).toBeGreaterThan(0);
    await expectError(await performer.post('/api/studio/payouts', { amount: PAYOUT_MIN_COINS - 1 }), 422, 'validation_failed', ['amount', 'payout_below_minimum']);
    await expectError(await performer.post('/api/studio/payouts', { amount: now.payable + 1 }), 422, 'validation_failed', ['amount', 'payout_over_payable']);
    const two = await Promise.all([0, 1].map(() => performer.post('/api/studio/payouts', { amount: now.payable })));
    expect(two.map((r) => r.status).sort()).toEqual([201, 422]);
    const id = (await show()).payouts.find((p) => p.state === 'requested')!.id;
    const payoutsBefore = await balanceOf('payouts');
    const batch = await expectJson<{ batch_id: number; results: Record<string, string> }>(await op.client.post('/api/operator/payouts/pay', { ids: [id, 999_999] }), 200);
    expect(batch.results).toEqual({ [id]: 'paid', 999999: 'not_requested' });
    // What is left is the disputed share: not payable until the member settles.
    expect(await show()).toMatchObject({ balance: now.disputed, disputed: now.disputed, payable: 0, pending: 0 });
    expect(await balanceOf('payouts')).toBe(payoutsBefore + now.payable);
    await expectError(await op.client.post('/api/operator/payouts/pay', { ids: [id] }), 409, 'nothing_to_pay');
    const csv = await op.client.get(`/api/operator/payouts/batches/${batch.batch_id}`);
    expect(csv.headers.get('Content-Type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('"payout","show","show_name","performer_user","coins","ledger_ref","paid_at"');
    expect(lines[1]).toContain(`"${now.payable}","payout:${id}"`);
    expect((await performer.get(`/api/operator/payouts/batches/${batch.batch_id}`)).status).toBe(403);
    await booksHold();
  });
});
