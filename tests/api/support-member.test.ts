import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { InboxList, InboxMessages } from '../../src/shared/inbox';
import type { SendAnswer } from '../../src/shared/messages';
import { expectError, expectJson } from './helpers';
import { performerOf } from './chat-helpers';
import { operatorClient, sendOk, writer } from './messages-helpers';

// Issue 24 point 15 (g): support saw only a pseudonym and could not find the member's payment
// or chat. An operator's support thread now names the account (id, name, e-mail, balance) with
// its latest payments and chats; a performer's thread of the same member stays pseudonymous.

const SLOW = 90_000;

describe('the account behind a support thread', () => {
  it('operators see id, name, e-mail, the payments and the chats; performers still only the pseudonym', { timeout: SLOW }, async () => {
    const m = await writer(20);
    // A payment started by the member (pending at the sandbox) and a chat the member had.
    const init = await expectJson<{ id: number }>(await m.client.post('/api/billing/init', { paymenttypeid: 1, productid: 2 }), 200);
    const chatId = `support-test-${crypto.randomUUID()}`;
    await env.DB.prepare("INSERT INTO chat_sessions (id, show_id, user_id, visitor, nick, type, state, price, created_at, minutes, coins) VALUES (?, 45, ?, 'v', 'n', 'private', 'ended', 5, ?, 3, 15)")
      .bind(chatId, m.id, 1_790_000_000_000)
      .run();
    const support = await expectJson<SendAnswer>(await m.client.post('/api/conversations/support', { body: 'My payment did not arrive' }), 200);
    const viaShow = await sendOk(m, 45, 'hello');

    const operator = await operatorClient();
    const thread = await expectJson<InboxMessages>(await operator.get(`/api/support/conversations/${support.conversation.id}/messages`), 200);
    expect(thread.member).toMatchObject({ id: m.id, name: m.name, email: m.email, coins: 20 });
    const payment = thread.member!.payments.find((p) => p.id === init.id);
    expect(payment).toMatchObject({ status: 'pending', provider: expect.any(String), currency: expect.any(String) });
    expect(payment!.coins).toBeGreaterThan(0);
    const show45 = await env.DB.prepare('SELECT name FROM shows WHERE id = 45').first<{ name: string }>();
    expect(thread.member!.chats.find((c) => c.id === chatId)).toEqual({ id: chatId, show_id: 45, show_name: show45!.name, type: 'private', state: 'ended', minutes: 3, coins: 15, at: 1_790_000_000, refunded: 0 });

    // The performer of show 45: the same member's thread carries no account.
    const performer = await performerOf(45);
    const res = await performer.get(`/api/studio/conversations/${viaShow.conversation.id}/messages`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect((JSON.parse(text) as InboxMessages).member).toBeUndefined();
    expect(text).not.toContain(m.email);
    expect(text).not.toMatch(/"(member|email|payments|chats)":/);
    const list = await performer.get('/api/studio/conversations');
    expect(((await list.json()) as InboxList).data.some((c) => c.id === viaShow.conversation.id)).toBe(true);

    // Members reach no support thread, their own neither.
    await expectError(await m.client.get(`/api/support/conversations/${support.conversation.id}/messages`), 403, 'not_operator');
  });
});
