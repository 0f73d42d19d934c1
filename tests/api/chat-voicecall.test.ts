import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { SessionView } from '../../src/shared/chat';
import { type Client, expectError, expectJson, req } from './helpers';
import { performerPart } from '../../src/server/lib/ledger.repo';
import { addCoins, chatMember, coinsOf, joinRoom, ledgerRefs, liveShow, sessionRow, startChat, startOk } from './chat-helpers';

// Voice-call sessions (shows 221-225; a billed minute is 1 s in tests): while the browser session's
// phone call is connected, that call pays for a chat's time. No coin minute is charged, exclusive
// and tips are refused, and the room ends the session once the call is no longer connected. Each
// minute is booked from the phone line's money (payments) to the performer and the house, so the
// performer earns as from coins while the member's balance stays.

const PHONE = { paymenttypeid: 3, productid: 8 };
/** What the performer earned from a session's minutes (their earnings account's side of `chat:{id}:*`). */
async function earned(showId: number, sessionId: string): Promise<number> {
  const r = await env.DB.prepare('SELECT COALESCE(-SUM(amount), 0) AS n FROM ledger WHERE counter = ? AND ref LIKE ?').bind(`performer:${showId}`, `chat:${sessionId}:%`).first<{ n: number }>();
  return r!.n;
}
const bidOf = (link: string) => decodeURIComponent(new URL(link, 'http://x').searchParams.get('bid')!);
const line = (bid: string, action: 'start' | 'end') => req('/billing/phone', { method: 'POST', body: new URLSearchParams({ bid, action }), redirect: 'manual' });

/** Puts the member's browser session into voice-call mode: a phone payment whose call connects. */
async function connectCall(client: Client): Promise<{ id: number; bid: string }> {
  const body = await expectJson<{ id: number; link: string }>(await client.post('/api/billing/init_phonecall', PHONE), 200);
  const bid = bidOf(body.link);
  expect((await line(bid, 'start')).status).toBe(303);
  expect(await expectJson<{ status: string; voicecall: boolean }>(await client.get('/api/billing/check_phonecall'), 200)).toMatchObject({ status: 'active', voicecall: true });
  return { id: body.id, bid };
}

describe('voice-call sessions', () => {
  it('the call pays: a private runs minute after minute with no coin charged, then ends when the call is hung up', async () => {
    const { show, studio } = await liveShow(221);
    const m = await chatMember(0);
    const call = await connectCall(m.client);
    const coins = await coinsOf(m.id);
    // The call itself was charged (its package coins), which is below this show's first minute on purpose:
    // a voice-call session needs no coins.
    await addCoins(m.id, -coins);
    expect(await coinsOf(m.id)).toBe(0);

    const s = await startOk(m.client, show.universalId, 'private');
    expect(s).toMatchObject({ session_type: 'private', price: show.price, voicecall: true });
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'pending', price: show.price, phone_billing_id: call.id });
    const request = await studio.next('request', (e) => e.session.sessionId === s.sessionId);
    expect(request.session).toMatchObject({ by_call: true, price: show.price });
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    const two = await member.next('session', (e) => e.session.minutes === 2);
    expect(two.session).toMatchObject<Partial<SessionView>>({ state: 'active', coins: 0, by_call: true });
    expect(await coinsOf(m.id)).toBe(0);
    // Each minute: the call's money credits the member and the minute debits it again, to the performer and the house.
    expect(await ledgerRefs(`chat:${s.sessionId}:`)).toEqual(expect.arrayContaining([`chat:${s.sessionId}:1`, `chat:${s.sessionId}:1:paid`, `chat:${s.sessionId}:2`, `chat:${s.sessionId}:2:paid`]));

    // The member hangs up: at the next minute the room finds the call gone and ends the chat.
    await expectJson(await m.client.post('/api/billing/end_phonecall'), 200);
    expect(await member.next('ended')).toEqual({ t: 'ended', sessionId: s.sessionId, reason: 'call_ended' });
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('call_ended');
    const row = (await sessionRow(s.sessionId))!;
    expect(row).toMatchObject({ state: 'ended', end_reason: 'call_ended', coins: 0 });
    expect(row.minutes as number).toBeGreaterThanOrEqual(2);
    expect(await coinsOf(m.id)).toBe(0);
    expect(await earned(show.id, s.sessionId)).toBe((row.minutes as number) * performerPart(show.price));
    const paid = await env.DB.prepare("SELECT COUNT(*) AS n, SUM(amount) AS total FROM ledger WHERE ref LIKE ? AND counter = 'payments'").bind(`chat:${s.sessionId}:%`).first<{ n: number; total: number }>();
    expect(paid).toEqual({ n: row.minutes, total: (row.minutes as number) * show.price });

    // Without the call the same member pays in coins again, and has none.
    await expectError(await startChat(m.client, show.universalId, 'private'), 422, 'chat.no_coins');
    studio.ws.close(1000);
  });

  it('a voyeur is paid by the call too; the phone line hanging up ends it', async () => {
    const { show, studio } = await liveShow(222);
    const m = await chatMember(0);
    const call = await connectCall(m.client);
    const before = await coinsOf(m.id);
    const s = await startOk(m.client, show.universalId, 'voyeur');
    expect(s).toMatchObject({ session_type: 'voyeur', voicecall: true });
    const member = await joinRoom(show.id, s.login, s.password);
    expect((await member.next('welcome')).session).toMatchObject({ state: 'active', minutes: 1, coins: 0, by_call: true });
    await line(call.bid, 'end');
    expect(await member.next('ended')).toEqual({ t: 'ended', sessionId: s.sessionId, reason: 'call_ended' });
    expect(await coinsOf(m.id)).toBe(before);
    expect(await earned(show.id, s.sessionId)).toBe(performerPart(s.price) * ((await sessionRow(s.sessionId))!.minutes as number));
    studio.ws.close(1000);
  });

  it('in voice-call mode exclusive and tips are refused; free chat stays free', async () => {
    const { show, studio } = await liveShow(223);
    const m = await chatMember(1000);
    await connectCall(m.client);
    await expectError(await startChat(m.client, show.universalId, 'exclusive'), 422, 'chat.show_not_available_exclusive');
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM chat_sessions WHERE user_id = ?').bind(m.id).first<{ n: number }>())!.n).toBe(0);
    const free = await startOk(m.client, show.universalId, 'free');
    expect(free).toMatchObject({ session_type: 'free', price: 0, voicecall: false });
    const member = await joinRoom(show.id, free.login, free.password);
    await member.next('welcome');
    const coins = await coinsOf(m.id);
    await expectError(await m.client.post(`/api/chatsession/tip/${free.sessionId}`, { coins: 10 }), 422, 'chat.tip_not_available');
    expect(await coinsOf(m.id)).toBe(coins);
    member.ws.close(1000);
    studio.ws.close(1000);
  });

  it('the voice-call flag alone pays nothing: without a connected call the coins are charged', async () => {
    const { show, studio } = await liveShow(224);
    const m = await chatMember(1000);
    const call = await connectCall(m.client);
    await line(call.bid, 'end');
    // A session row claiming voice-call mode, but its call has ended.
    await env.DB.prepare("UPDATE sessions SET voicecall = 1 WHERE id = (SELECT session_id FROM billings WHERE id = ?)").bind(call.id).run();
    const s = await startOk(m.client, show.universalId, 'private');
    expect(s).toMatchObject({ price: show.price, voicecall: false });
    expect(await sessionRow(s.sessionId)).toMatchObject({ phone_billing_id: null, price: show.price });
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    const coins = await coinsOf(m.id);
    studio.send({ t: 'accept', sessionId: s.sessionId });
    expect((await member.next('session', (e) => e.session.minutes === 1)).session).toMatchObject({ coins: show.price, by_call: false });
    expect(await coinsOf(m.id)).toBe(coins - show.price);
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    studio.ws.close(1000);
  });

  it("another member's call pays for nobody else", async () => {
    const { show, studio } = await liveShow(225);
    const caller = await chatMember(0);
    await connectCall(caller.client);
    const other = await chatMember(0);
    await expectError(await startChat(other.client, show.universalId, 'private'), 422, 'chat.no_coins');
    studio.ws.close(1000);
  });
});
