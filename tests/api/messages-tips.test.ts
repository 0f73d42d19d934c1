import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { InboxList, InboxMessages } from '../../src/shared/inbox';
import type { ConversationMessages, SendAnswer } from '../../src/shared/messages';
import { performerPart } from '../../src/server/lib/ledger.repo';
import { Client, expectError, expectJson, req } from './helpers';
import { coinsOf, performerOf } from './chat-helpers';
import { lobbySocket, operatorClient, reply, sendOk, sendShow, writer } from './messages-helpers';

// Issue 14, tips in messages and live counts: a tip moves coins member -> performer earnings and
// house in the same D1 batch as the message (refused cleanly without coins, never in voice-call
// mode; exact under a parallel burst), and every new message, read or block pushes user:mc to the
// member and to the performer's or operators' side.

const SLOW = 90_000;
const PHONE = { paymenttypeid: 3, productid: 8 };

async function tipRows(userId: number): Promise<{ amount: number; counter: string; ref: string }[]> {
  const { results } = await env.DB.prepare("SELECT amount, counter, ref FROM ledger WHERE user_id = ? AND reason = 'tip' ORDER BY id").bind(userId).all<{ amount: number; counter: string; ref: string }>();
  return results;
}
const messageCount = async (userId: number) => (await env.DB.prepare('SELECT COUNT(*) AS n FROM messages WHERE user_id = ?').bind(userId).first<{ n: number }>())!.n;

describe('tips in messages', () => {
  it('debits the member to the performer earnings and the house in the message batch; the studio sees the tip', { timeout: SLOW }, async () => {
    const m = await writer(100);
    const sent = await expectJson<SendAnswer>(await sendShow(m, { body: 'For you', showid: 31, pseudoid: 0, tip: 1, coins: 40 }), 200);
    expect(sent.user).toEqual({ coins: 60 });
    expect(sent.message).toMatchObject({ body: 'For you', tip: 40, author: 'member' });
    expect(await coinsOf(m.id)).toBe(60);
    const rows = await tipRows(m.id);
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(-40);
    expect(rows.find((r) => r.counter === 'performer:31')!.amount).toBe(-performerPart(40));
    const ref = (await env.DB.prepare('SELECT tip_ref FROM messages WHERE id = ?').bind(sent.message.messageid).first<{ tip_ref: string }>())!.tip_ref;
    expect(rows.map((r) => r.ref)).toEqual([ref, `${ref}:house`]);
    const performer = await performerOf(31);
    const inbox = await expectJson<InboxList>(await performer.get('/api/studio/conversations'), 200);
    expect(inbox.data.find((c) => c.id === sent.conversation.id)).toMatchObject({ tips: 40, unread: 1, memberpseudo: sent.conversation.memberpseudo });
    const thread = await expectJson<InboxMessages>(await performer.get(`/api/studio/conversations/${sent.conversation.id}/messages`), 200);
    expect(thread.messages.data.map((x) => x.tip)).toEqual([40]);
  });

  it('a message without tip (tip false or coins 0) costs nothing', async () => {
    const m = await writer(50);
    const a = await sendOk(m, 32, 'no tip', { tip: false, coins: 30 });
    expect(a.user).toBeUndefined();
    expect(a.message.tip).toBe(0);
    await sendOk(m, 32, 'still no tip', { coins: 0 });
    expect(await coinsOf(m.id)).toBe(50);
    expect(await tipRows(m.id)).toEqual([]);
  });

  it('without the coins: 422 messages.no_coins, no message, no conversation, no ledger row', async () => {
    const m = await writer(10);
    await expectError(await sendShow(m, { body: 'big tip', showid: 33, pseudoid: 0, tip: true, coins: 11 }), 422, 'messages.no_coins', ['coins', 'messages.no_coins']);
    expect(await coinsOf(m.id)).toBe(10);
    expect(await messageCount(m.id)).toBe(0);
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM conversations WHERE user_id = ?').bind(m.id).first<{ n: number }>())!.n).toBe(0);
    expect(await tipRows(m.id)).toEqual([]);
    await expectError(await sendShow(m, { body: 'too big', showid: 33, pseudoid: 0, tip: true, coins: 10_001 }), 422, 'validation_failed', ['coins', 'messages.invalid']);
    await expectError(await sendShow(m, { body: 'negative', showid: 33, pseudoid: 0, tip: true, coins: -5 }), 422, 'validation_failed', ['coins', 'messages.invalid']);
  });

  it('unverified members cannot write to shows (403 not_verified), but can write to support', async () => {
    const m = await writer(100);
    await env.DB.prepare('UPDATE users SET is_verified = 0 WHERE id = ?').bind(m.id).run();
    await expectError(await sendShow(m, { body: 'hi', showid: 34, pseudoid: 0, tip: true, coins: 5 }), 403, 'not_verified');
    expect(await coinsOf(m.id)).toBe(100);
    expect((await m.client.post('/api/conversations/support', { body: 'please help' })).status).toBe(200);
  });

  it('never during voice-call mode: the session in a phone call, or a voice-call chat session with the show', { timeout: SLOW }, async () => {
    const m = await writer(500);
    const init = await expectJson<{ id: number; link: string }>(await m.client.post('/api/billing/init_phonecall', PHONE), 200);
    const bid = decodeURIComponent(new URL(init.link, 'http://x').searchParams.get('bid')!);
    expect((await req('/billing/phone', { method: 'POST', body: new URLSearchParams({ bid, action: 'start' }), redirect: 'manual' })).status).toBe(303);
    const before = await coinsOf(m.id);
    await expectError(await sendShow(m, { body: 'tip in a call', showid: 35, pseudoid: 0, tip: true, coins: 5 }), 422, 'messages.tip_voicecall', ['coins', 'messages.tip_voicecall']);
    expect(await coinsOf(m.id)).toBe(before);
    // A message without a tip is fine in a call.
    await sendOk(m, 35, 'just words');

    // Another browser of the same member (not in voice-call mode) while a voice-call chat runs with show 36.
    const other = new Client();
    expect((await other.login(m.name, m.password)).status).toBe(200);
    await env.DB.prepare("INSERT INTO chat_sessions (id, show_id, user_id, visitor, nick, type, state, price, created_at, phone_billing_id) VALUES (?, 36, ?, 'v', 'n', 'private', 'active', 5, ?, ?)")
      .bind(`vc-${m.id}`, m.id, Date.now(), init.id)
      .run();
    await expectError(await sendShow({ client: other }, { body: 'tip', showid: 36, pseudoid: 0, tip: true, coins: 5 }), 422, 'messages.tip_voicecall');
    // Other shows are fine from that browser.
    expect((await expectJson<SendAnswer>(await sendShow({ client: other }, { body: 'tip', showid: 37, pseudoid: 0, tip: true, coins: 5 }), 200)).message.tip).toBe(5);
    expect(await coinsOf(m.id)).toBe(before - 5);
  });

  for (const [parallel, affordable] of [
    [100, 7],
    [20, 20],
  ] as const) {
    it(`${parallel} parallel tips of 10 with coins for ${affordable}: exactly ${Math.min(parallel, affordable)} succeed, the ledger is exact`, { timeout: SLOW }, async () => {
      const m = await writer(affordable * 10 + 5);
      await m.client.csrf();
      const answers = await Promise.all(Array.from({ length: parallel }, (_, i) => sendShow(m, { body: `tip ${i}`, showid: 38, pseudoid: 0, tip: 1, coins: 10 })));
      const statuses = answers.map((r) => r.status);
      const ok = Math.min(parallel, affordable);
      expect(statuses.filter((s) => s === 200)).toHaveLength(ok);
      expect(statuses.filter((s) => s === 422)).toHaveLength(parallel - ok);
      for (const r of answers.filter((x) => x.status === 422)) expect(((await r.json()) as { message: string }).message).toBe('messages.no_coins');
      expect(await coinsOf(m.id)).toBe(affordable * 10 + 5 - ok * 10);
      expect((await tipRows(m.id)).reduce((s, r) => s + r.amount, 0)).toBe(-ok * 10);
      expect(await messageCount(m.id)).toBe(ok);
      expect((await env.DB.prepare('SELECT tips FROM conversations WHERE user_id = ? AND show_id = 38').bind(m.id).first<{ tips: number }>())!.tips).toBe(ok * 10);
      // One conversation, however many raced to create it.
      expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM conversations WHERE user_id = ?').bind(m.id).first<{ n: number }>())!.n).toBe(1);
    });
  }
});

describe('live counts (user:mc)', () => {
  it('a reply pushes the member count; a read pushes it again; the performer gets the studio count', { timeout: SLOW }, async () => {
    const m = await writer();
    const performer = await performerOf(39);
    const memberSocket = await lobbySocket(m.client);
    const studioSocket = await lobbySocket(performer);
    const sent = await sendOk(m, 39, 'hello live');
    expect(await studioSocket.nextMc('studio')).toEqual({ type: 'user:mc', count: 1, side: 'studio' });
    expect((await memberSocket.nextMc()).count).toBe(0);
    expect((await reply(performer, sent.conversation.id, 'live answer')).status).toBe(200);
    expect(await memberSocket.nextMc()).toEqual({ type: 'user:mc', count: 1 });
    // Answering read the member's message on the studio side.
    expect((await studioSocket.nextMc('studio')).count).toBe(0);
    const thread = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${sent.conversation.id}/messages`), 200);
    await m.client.post('/api/conversations/read', { ids: thread.messages.data.filter((x) => x.unread).map((x) => x.messageid) });
    expect(await memberSocket.nextMc()).toEqual({ type: 'user:mc', count: 0 });
    await sendOk(m, 39, 'more');
    expect((await studioSocket.nextMc('studio')).count).toBe(1);
    await performer.post(`/api/studio/conversations/${sent.conversation.id}/read`);
    expect((await studioSocket.nextMc('studio')).count).toBe(0);
    memberSocket.close();
    studioSocket.close();
  });

  it('a block pushes the member count; support messages reach the operators and their answer the member', { timeout: SLOW }, async () => {
    const m = await writer();
    const performer = await performerOf(40);
    const sent = await sendOk(m, 40, 'hello');
    await reply(performer, sent.conversation.id);
    const memberSocket = await lobbySocket(m.client);
    await m.client.post('/api/conversations/block/40');
    expect(await memberSocket.nextMc()).toEqual({ type: 'user:mc', count: 0 });
    await m.client.post('/api/conversations/unblock/40');
    expect(await memberSocket.nextMc()).toEqual({ type: 'user:mc', count: 1 });

    const operator = await operatorClient();
    const opSocket = await lobbySocket(operator);
    const support = await expectJson<SendAnswer>(await m.client.post('/api/conversations/support', { body: 'help please' }), 200);
    // The member's own message changes nothing for them (still 1 unread of the show).
    expect(await memberSocket.nextMc()).toEqual({ type: 'user:mc', count: 1 });
    const pushed = await opSocket.nextMc('support');
    expect(pushed.side).toBe('support');
    expect(pushed.count).toBeGreaterThanOrEqual(1);
    expect((await operator.post(`/api/support/conversations/${support.conversation.id}/reply`, { body: 'Happy to help' })).status).toBe(200);
    expect(await memberSocket.nextMc()).toEqual({ type: 'user:mc', count: 2 });
    memberSocket.close();
    opSocket.close();
  });
});
