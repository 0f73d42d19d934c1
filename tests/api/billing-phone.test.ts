import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { registerMember } from './account-helpers';
import { Client, expectError, expectJson, req, uniqueIp } from './helpers';
import { billingSecret, SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/server/features/billing/provider';
import type { Bindings } from '../../src/server/env';
import { chatMember, liveShow, startChat } from './chat-helpers';

// Pay by phone: the call is the payment. The phone line charges the package price once when the
// call connects (billing 'paid', coins through the ledger with the billing's reference), the
// session is in voice-call mode until the call ends (on the page or on the line), and a call that
// never connected is never 'paid'.

const PHONE = { paymenttypeid: 3, productid: 8 };

interface Check {
  status: string;
  id: number | null;
  voicecall: boolean;
  session: { voicecall: boolean; phonecall_payment_type_id: number | null; phonecall_payment_name: string | null };
}

const coins = async (id: number) => (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;
const billing = (id: number) => env.DB.prepare('SELECT status, coins, amount_cents, call_started_at, call_ended_at FROM billings WHERE id = ?').bind(id).first<Record<string, unknown>>();
const ledgerRows = async (ref: string) => (await env.DB.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS total FROM ledger WHERE ref = ?').bind(ref).first<{ n: number; total: number }>())!;
const bidOf = (link: string) => decodeURIComponent(new URL(link, 'http://x').searchParams.get('bid')!);
const line = (bid: string, action: 'start' | 'end') => req('/billing/phone', { method: 'POST', body: new URLSearchParams({ bid, action }), redirect: 'manual' });

async function initCall(client: Client): Promise<{ id: number; link: string; bid: string; coins: number }> {
  const body = await expectJson<{ id: number; link: string; coins: number }>(await client.post('/api/billing/init_phonecall', PHONE), 200);
  expect(body.link).toMatch(/^\/billing\/phone\?bid=/);
  return { ...body, bid: bidOf(body.link) };
}

const check = async (client: Client) => expectJson<Check>(await client.get('/api/billing/check_phonecall'), 200);

describe('pay by phone', () => {
  it('init -> call connects (charged once: paid, 200 coins via the ledger, voice-call mode) -> ended on the page', async () => {
    const m = await registerMember({ verified: true });
    const call = await initCall(m.client);
    expect(call.coins).toBe(200);
    // Waiting for the call: nothing charged, nothing credited, the session knows the phone payment.
    expect(await billing(call.id)).toMatchObject({ status: 'pending', call_started_at: null });
    const pending = await check(m.client);
    expect(pending).toMatchObject({ status: 'pending', id: call.id, voicecall: false });
    expect(pending.session.phonecall_payment_name).toBe('Pay by phone');
    expect(await coins(m.id)).toBe(0);

    // The phone line shows what the call costs and gives.
    const page = await (await req(call.link)).text();
    expect(page).toContain('data-testid="phone-price">€19.90<');
    expect(page).toContain('data-testid="phone-coins">200<');

    expect((await line(call.bid, 'start')).status).toBe(303);
    expect(await billing(call.id)).toMatchObject({ status: 'paid', amount_cents: 1990, call_ended_at: null });
    expect(await coins(m.id)).toBe(200);
    expect(await ledgerRows(`payment:sandbox-phone:${call.id}`)).toEqual({ n: 1, total: 200 });
    expect(await check(m.client)).toMatchObject({ status: 'active', id: call.id, voicecall: true });
    expect((await m.client.me())?.coins).toBe(200);
    // While the call runs a second phone payment cannot begin.
    await expectError(await m.client.post('/api/billing/init_phonecall', PHONE), 409, 'voicecall_active');

    // "End call" on the page ends the call server-side.
    const ended = await expectJson<{ status: string; id: number; session: Check['session'] }>(await m.client.post('/api/billing/end_phonecall'), 200);
    expect(ended).toMatchObject({ status: 'ended', id: call.id, session: { voicecall: false, phonecall_payment_type_id: null } });
    const after = await check(m.client);
    expect(after).toMatchObject({ status: 'ended', voicecall: false });
    expect(after.session.phonecall_payment_name).toBeNull();
    // The charge stays: paid, the coins stay, the line shows the call ended.
    const row = await billing(call.id);
    expect(row).toMatchObject({ status: 'paid' });
    expect(row?.call_ended_at).toEqual(expect.any(Number));
    expect(await coins(m.id)).toBe(200);
    expect(await (await req(call.link)).text()).toContain('data-testid="phone-state">Call ended<');
    // The line's own hang-up after that changes nothing; ending again is harmless.
    await line(call.bid, 'end');
    expect(await expectJson<{ status: string }>(await m.client.post('/api/billing/end_phonecall'), 200)).toMatchObject({ status: 'ended' });
    expect(await coins(m.id)).toBe(200);
    expect(await billing(call.id)).toMatchObject({ status: 'paid' });
  });

  it('the line can end the call too; a charge replayed after the end does not reopen voice-call mode', async () => {
    const m = await registerMember({ verified: true });
    const call = await initCall(m.client);
    await line(call.bid, 'start');
    expect(await check(m.client)).toMatchObject({ status: 'active', voicecall: true });
    await line(call.bid, 'end');
    expect(await check(m.client)).toMatchObject({ status: 'ended', voicecall: false });
    await line(call.bid, 'start');
    expect(await check(m.client)).toMatchObject({ status: 'ended', voicecall: false });
    expect(await coins(m.id)).toBe(200);
  });

  it('100 parallel charges of one call and replayed postbacks credit the coins exactly once', async () => {
    const m = await registerMember({ verified: true });
    const call = await initCall(m.client);
    const answers = await Promise.all(Array.from({ length: 100 }, () => line(call.bid, 'start')));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(303));
    expect(await coins(m.id)).toBe(200);
    expect(await ledgerRows(`payment:sandbox-phone:${call.id}`)).toEqual({ n: 1, total: 200 });
    expect(await billing(call.id)).toMatchObject({ status: 'paid' });
    expect(await check(m.client)).toMatchObject({ status: 'active', voicecall: true });
    // The phone line replays its signed postback (a retry): accepted, nothing credited again.
    const phoneLine = new SandboxProvider(billingSecret(env as unknown as Bindings), true);
    const { body, signature } = await phoneLine.signedPostback({ billingId: call.id, status: 'paid', eventId: 'retry-1' });
    const replays = await Promise.all(
      Array.from({ length: 10 }, () => req('/api/billing/callback/sandbox-phone', { method: 'POST', body, headers: { [SANDBOX_SIGNATURE_HEADER]: signature, 'Content-Type': 'application/json' } })),
    );
    expect(replays.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await coins(m.id)).toBe(200);
    expect(await ledgerRows(`payment:sandbox-phone:${call.id}`)).toEqual({ n: 1, total: 200 });
  });

  it('a call that never connects is never charged: hung up before it starts it is cancelled, no coins', async () => {
    const m = await registerMember({ verified: true });
    const call = await initCall(m.client);
    const ended = await expectJson<{ status: string }>(await m.client.post('/api/billing/end_phonecall'), 200);
    expect(ended.status).toBe('ended');
    expect(await billing(call.id)).toMatchObject({ status: 'cancelled', call_started_at: null });
    // The line no longer offers the call, and a late start charges nothing.
    expect(await (await req(call.link)).text()).not.toContain('data-action="phone-start"');
    await line(call.bid, 'start');
    expect(await billing(call.id)).toMatchObject({ status: 'cancelled' });
    expect(await coins(m.id)).toBe(0);
    expect(await check(m.client)).toMatchObject({ status: 'ended', voicecall: false });
  });

  it('end_phonecall needs the CSRF token and without a call answers none', async () => {
    const m = await registerMember({ verified: true });
    const call = await initCall(m.client);
    await line(call.bid, 'start');
    expect((await m.client.post('/api/billing/end_phonecall', undefined, { csrf: false })).status).toBe(419);
    expect(await check(m.client)).toMatchObject({ status: 'active', voicecall: true });
    const visitor = new Client();
    expect(await expectJson<{ status: string }>(await visitor.post('/api/billing/end_phonecall'), 200)).toMatchObject({ status: 'none', id: null });
    expect(await check(m.client)).toMatchObject({ status: 'active', voicecall: true });
  });

  it('coins need an account: a visitor cannot start a phone payment (401, nothing stored)', async () => {
    const visitor = new Client();
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM billings').first<{ n: number }>();
    await expectError(await visitor.post('/api/billing/init_phonecall', PHONE), 401, 'unauthenticated');
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM billings').first<{ n: number }>()).toEqual(before);
  });

  it('one address starts at most 20 phone payments an hour, also under 100 parallel inits (429 with Retry-After)', async () => {
    const ip = uniqueIp();
    const members = await Promise.all(Array.from({ length: 4 }, () => registerMember({ verified: true })));
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => members[i % members.length].client.post('/api/billing/init_phonecall', PHONE, { headers: { 'CF-Connecting-IP': ip } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    const limited = results.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    await expectError(limited, 429, 'too_many_attempts');
    const ids = members.map((m) => m.id);
    const stored = await env.DB.prepare(`SELECT COUNT(*) AS n FROM billings WHERE is_phonecall = 1 AND user_id IN (${ids.map(() => '?').join(',')})`)
      .bind(...ids)
      .first<{ n: number }>();
    expect(stored).toEqual({ n: 20 });
    // Another address is not affected.
    expect((await members[0].client.post('/api/billing/init_phonecall', PHONE, { headers: { 'CF-Connecting-IP': uniqueIp() } })).status).toBe(200);
  });

  it('only charged phone billings are paid: pending and cancelled ones stay non-paid', async () => {
    const m = await registerMember({ verified: true });
    const first = await initCall(m.client);
    await m.client.post('/api/billing/end_phonecall');
    const second = await initCall(m.client);
    await line(second.bid, 'start');
    await expectError(await m.client.post('/api/billing/init_phonecall', PHONE), 409, 'voicecall_active');
    await m.client.post('/api/billing/end_phonecall');
    const fourth = await initCall(m.client);
    const rows = await env.DB.prepare('SELECT id, status FROM billings WHERE user_id = ? ORDER BY id').bind(m.id).all<{ id: number; status: string }>();
    expect(rows.results).toEqual([
      { id: first.id, status: 'cancelled' },
      { id: second.id, status: 'paid' },
      { id: fourth.id, status: 'pending' },
    ]);
    expect(await coins(m.id)).toBe(200);
  });

  it('a call pays only for the member who opened it: after a logout, the next member logging in in that browser cannot use it', async () => {
    const { show, studio } = await liveShow(221);
    const a = await chatMember(0);
    const b = await chatMember(0);
    const browser = a.client;
    const call = await initCall(browser);
    await line(call.bid, 'start');
    expect(await check(browser)).toMatchObject({ status: 'active', id: call.id, voicecall: true });
    // A leaves, B logs in in the same browser: A's call is not B's, and the browser left voice-call mode with A.
    expect(await expectJson<{ session: Check['session'] }>(await browser.post('/api/auth/logout'), 200)).toMatchObject({ session: { voicecall: false } });
    expect((await browser.login(b.name, b.password)).status).toBe(200);
    expect(await check(browser)).toMatchObject({ status: 'none', id: null, voicecall: false });
    // B's private is paid in coins (B has none), never by A's call.
    await expectError(await startChat(browser, show.universalId, 'private'), 422, 'chat.no_coins');
    const onCall = await env.DB.prepare('SELECT COUNT(*) AS n FROM chat_sessions WHERE phone_billing_id = ?').bind(call.id).first<{ n: number }>();
    expect(onCall).toEqual({ n: 0 });
    // B cannot hang up A's call either; B's browser leaves voice-call mode.
    expect(await expectJson<{ status: string; session: Check['session'] }>(await browser.post('/api/billing/end_phonecall'), 200)).toMatchObject({ status: 'none', session: { voicecall: false } });
    expect(await billing(call.id)).toMatchObject({ status: 'paid', call_ended_at: null });
    expect(await coins(a.id)).toBe(200);
    expect(await coins(b.id)).toBe(0);
    studio.ws.close(1000);
  });

  it('a call that connects after its member logged out does not put the next member of that browser into voice-call mode', async () => {
    const { show, studio } = await liveShow(222);
    const a = await chatMember(0);
    const b = await chatMember(0);
    const browser = a.client;
    const call = await initCall(browser);
    expect((await browser.post('/api/auth/logout')).status).toBeLessThan(300);
    expect((await browser.login(b.name, b.password)).status).toBe(200);
    // A's phone connects now: A is charged and credited, B's browser session stays as it was.
    expect((await line(call.bid, 'start')).status).toBe(303);
    expect(await billing(call.id)).toMatchObject({ status: 'paid' });
    expect(await coins(a.id)).toBe(200);
    expect(await check(browser)).toMatchObject({ status: 'none', voicecall: false });
    await expectError(await startChat(browser, show.universalId, 'voyeur'), 422, 'chat.no_coins');
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM chat_sessions WHERE phone_billing_id = ?').bind(call.id).first<{ n: number }>()).toEqual({ n: 0 });
    studio.ws.close(1000);
  });
});
