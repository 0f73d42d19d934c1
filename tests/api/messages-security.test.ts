import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { InboxList, InboxMessages } from '../../src/shared/inbox';
import { MESSAGE_SEND_LIMIT, type ConversationMessages, type Counts, type SendAnswer } from '../../src/shared/messages';
import { registerMember } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';
import { performerOf } from './chat-helpers';
import { operatorClient, reply, sendOk, writer, type Writer } from './messages-helpers';

// Issue 14, security of conversations: a member reads and changes only their own conversations
// and messages (IDOR on every id parameter), a performer only their own show's threads, support
// threads only operators; performers and operators never see a member's name or e-mail; calls need
// a login and the CSRF header; hostile parameters never give a 5xx and change nothing.

const SLOW = 90_000;

/** A's conversation with show 41 (with an answer), and a second member B. */
async function victim(): Promise<{ a: Writer; b: Writer; sent: SendAnswer; answerId: number }> {
  const a = await writer(100);
  const b = await writer(100);
  const sent = await sendOk(a, 41, 'private words of A', { tip: 1, coins: 5 });
  const r = await expectJson<{ message: { messageid: number } }>(await reply(await performerOf(41), sent.conversation.id, 'answer for A'), 200);
  return { a, b, sent, answerId: r.message.messageid };
}

async function snapshot(userId: number) {
  const rows = await env.DB.prepare('SELECT id, read_member, read_side, deleted_member FROM messages WHERE user_id = ? ORDER BY id').bind(userId).all();
  const convs = await env.DB.prepare('SELECT id, member_hidden, last_message_at FROM conversations WHERE user_id = ? ORDER BY id').bind(userId).all();
  const blocks = await env.DB.prepare('SELECT * FROM message_blocks WHERE user_id = ?').bind(userId).all();
  return JSON.stringify([rows.results, convs.results, blocks.results]);
}

describe('IDOR: another member', () => {
  it('B cannot read, mark, delete or list any of A’s conversations or messages by id', { timeout: SLOW }, async () => {
    const { a, b, sent, answerId } = await victim();
    const cid = sent.conversation.id;
    const mid = sent.message.messageid;
    const before = await snapshot(a.id);
    await expectError(await b.client.get(`/api/conversations/${cid}/messages`), 404, 'messages.not_found');
    await expectError(await b.client.get(`/api/conversations/message/${mid}`), 404, 'messages.not_found');
    await expectError(await b.client.get(`/api/conversations/message/${answerId}`), 404, 'messages.not_found');
    await expectError(await b.client.del(`/api/conversations/message/${answerId}`), 404, 'messages.not_found');
    await expectError(await b.client.del(`/api/conversations/${cid}`), 404, 'messages.not_found');
    expect(await expectJson<Counts>(await b.client.post('/api/conversations/read', { ids: [answerId, mid] }), 200)).toEqual({ all: 0 });
    expect(await expectJson<Counts>(await b.client.post('/api/conversations/unread', { ids: [answerId], unread: 1 }), 200)).toEqual({ all: 0 });
    expect(await expectJson<Counts>(await b.client.post('/api/conversations/read_all', {}), 200)).toEqual({ all: 0 });
    // B's own view of the same show and pseudonym key is B's (empty) one.
    const draft = await expectJson<ConversationMessages>(await b.client.get('/api/conversations/0/messages?showid=41&pseudoid=0'), 200);
    expect(draft.conversation.id).toBe(0);
    expect(draft.messages.data).toEqual([]);
    expect((await expectJson<{ id: number }>(await b.client.get('/api/conversations/conversation?showid=41&pseudoid=0'), 200)).id).toBe(0);
    expect((await b.client.get(`/api/conversations?conversations_not=${cid}`).then((r) => r.json())) as unknown).toEqual({ data: [], current_page: 1, last_page: 1, total: 0 });
    // B blocking show 41 changes only B's block.
    await b.client.post('/api/conversations/block/41');
    expect(await snapshot(a.id)).toBe(before);
    expect(await expectJson<Counts>(await a.client.get('/api/conversations/count'), 200)).toEqual({ all: 1, [cid]: 1 });
    // B writing to the same show makes B's own conversation, never A's.
    await b.client.post('/api/conversations/unblock/41');
    const bSent = await sendOk(b, 41, 'B writes');
    expect(bSent.conversation.id).not.toBe(cid);
    expect(bSent.conversation.memberpseudo).not.toBe(sent.conversation.memberpseudo);
  });

  it('B’s support thread is B’s own; A’s support thread id gets B nothing', { timeout: SLOW }, async () => {
    const a = await writer();
    const b = await writer();
    const sa = await expectJson<SendAnswer>(await a.client.post('/api/conversations/support', { body: 'A needs help' }), 200);
    await expectError(await b.client.get(`/api/conversations/${sa.conversation.id}/messages`), 404, 'messages.not_found');
    const sb = await expectJson<SendAnswer>(await b.client.post('/api/conversations/support', { body: 'B needs help' }), 200);
    expect(sb.conversation.id).not.toBe(sa.conversation.id);
    const thread = await expectJson<ConversationMessages>(await b.client.get('/api/conversations/support/messages'), 200);
    expect(thread.messages.data.map((m) => m.body)).toEqual(['B needs help']);
  });
});

describe('IDOR: performers and operators', () => {
  it('a performer of another show cannot list, read, answer, mark or block a conversation (404)', { timeout: SLOW }, async () => {
    const { a, sent } = await victim();
    const other = await performerOf(42);
    const cid = sent.conversation.id;
    const before = await snapshot(a.id);
    expect((await expectJson<InboxList>(await other.get('/api/studio/conversations'), 200)).data.map((c) => c.id)).not.toContain(cid);
    await expectError(await other.get(`/api/studio/conversations/${cid}/messages`), 404, 'messages.not_found');
    await expectError(await other.post(`/api/studio/conversations/${cid}/reply`, { body: 'not mine' }), 404, 'messages.not_found');
    await expectError(await other.post(`/api/studio/conversations/${cid}/read`), 404, 'messages.not_found');
    await expectError(await other.post(`/api/studio/conversations/${cid}/block`), 404, 'messages.not_found');
    await expectError(await other.post(`/api/studio/conversations/${cid}/unblock`), 404, 'messages.not_found');
    expect(await snapshot(a.id)).toBe(before);
  });

  it('a performer cannot reach support threads; an operator cannot reach show threads; members reach neither inbox', { timeout: SLOW }, async () => {
    const { a, sent } = await victim();
    const support = await expectJson<SendAnswer>(await a.client.post('/api/conversations/support', { body: 'help' }), 200);
    const performer = await performerOf(41);
    await expectError(await performer.get(`/api/studio/conversations/${support.conversation.id}/messages`), 404, 'messages.not_found');
    await expectError(await performer.get('/api/support/conversations'), 403, 'not_operator');
    await expectError(await performer.post(`/api/support/conversations/${support.conversation.id}/reply`, { body: 'x' }), 403, 'not_operator');
    const operator = await operatorClient();
    await expectError(await operator.get(`/api/support/conversations/${sent.conversation.id}/messages`), 404, 'messages.not_found');
    await expectError(await operator.post(`/api/support/conversations/${sent.conversation.id}/reply`, { body: 'x' }), 404, 'messages.not_found');
    await expectError(await operator.get('/api/studio/conversations'), 403, 'not_performer');
    await expectError(await a.client.get('/api/studio/conversations'), 403, 'not_performer');
    await expectError(await a.client.get('/api/support/conversations'), 403, 'not_operator');
    await expectError(await a.client.post(`/api/support/conversations/${support.conversation.id}/reply`, { body: 'self answer' }), 403, 'not_operator');
  });

  it('the performer blocks a member’s conversation: showstatus 1, the member cannot write, the performer can unblock', { timeout: SLOW }, async () => {
    const { a, sent } = await victim();
    const performer = await performerOf(41);
    const blocked = await expectJson<{ conversation: { block: unknown } }>(await performer.post(`/api/studio/conversations/${sent.conversation.id}/block`), 200);
    expect(blocked.conversation.block).toEqual({ memberstatus: 0, showstatus: 1 });
    await expectError(await a.client.post('/api/conversations/show', { body: 'hi', showid: 41, pseudoid: 0 }), 403, 'messages.blocked');
    await expectError(await reply(performer, sent.conversation.id), 403, 'messages.blocked');
    expect((await expectJson<{ conversation: { block: unknown } }>(await performer.post(`/api/studio/conversations/${sent.conversation.id}/unblock`), 200)).conversation.block).toEqual({ memberstatus: 0, showstatus: 0 });
    await sendOk(a, 41, 'thanks');
  });
});

describe('performers never see the member’s name or e-mail', () => {
  it('no answer of the studio inbox (nor the operator list or reply) carries them, under the generated pseudonym or a nickname', { timeout: SLOW }, async () => {
    const m = await writer(10);
    const viaNick = await expectJson<SendAnswer>(await m.client.post('/api/conversations/show', { body: 'with my nickname', showid: 43, pseudoid: m.nickId }), 200);
    const viaPseudo = await sendOk(m, 44, 'with a pseudonym');
    const support = await expectJson<SendAnswer>(await m.client.post('/api/conversations/support', { body: 'support question' }), 200);
    expect(viaPseudo.conversation.memberpseudo).toMatch(/^Fan-[A-Z0-9]{6}$/);
    const p43 = await performerOf(43);
    const p44 = await performerOf(44);
    const operator = await operatorClient();
    const texts: string[] = [];
    for (const [client, path] of [
      [p43, '/api/studio/conversations'],
      [p43, `/api/studio/conversations/${viaNick.conversation.id}/messages`],
      [p44, '/api/studio/conversations'],
      [p44, `/api/studio/conversations/${viaPseudo.conversation.id}/messages`],
      // The operator's thread shows the account (support-member.test.ts); the list keeps to the pseudonym.
      [operator, '/api/support/conversations'],
    ] as const) {
      const res = await client.get(path);
      expect(res.status).toBe(200);
      texts.push(await res.text());
    }
    texts.push(await (await p44.post(`/api/studio/conversations/${viaPseudo.conversation.id}/reply`, { body: 'hi' })).text());
    texts.push(await (await operator.post(`/api/support/conversations/${support.conversation.id}/reply`, { body: 'hi' })).text());
    for (const t of texts) {
      expect(t).not.toContain(m.email);
      expect(t.toLowerCase()).not.toContain(m.name.toLowerCase());
      expect(t).not.toMatch(/"(user_id|userId|email|name)"/);
    }
    const inbox = JSON.parse(texts[2]) as InboxList;
    expect(inbox.data.find((c) => c.id === viaPseudo.conversation.id)!.memberpseudo).toBe(viaPseudo.conversation.memberpseudo);
    const thread = JSON.parse(texts[1]) as InboxMessages;
    expect(thread.conversation.memberpseudo).toBe(m.nick);
  });
});

describe('the operator inbox page', () => {
  it('/operator/messages: visitors to the login, members a 403 notice, operators the inbox island', async () => {
    const guest = new Client();
    const toLogin = await guest.fetch('/operator/messages', { headers: { Cookie: 'splash18=1' } });
    expect(toLogin.status).toBe(302);
    expect(toLogin.headers.get('Location')).toBe(`/login?redirect=${encodeURIComponent('/operator/messages')}`);
    const m = await registerMember({ verified: true });
    m.client.jar.set('splash18', '1');
    const denied = await m.client.get('/operator/messages');
    expect(denied.status).toBe(403);
    const deniedHtml = await denied.text();
    expect(deniedHtml).toContain('data-testid="operator-not-operator"');
    expect(deniedHtml).not.toContain('data-island="OperatorInbox"');
    const operator = await operatorClient();
    operator.jar.set('splash18', '1');
    const page = await operator.get('/operator/messages');
    expect(page.status).toBe(200);
    expect(page.headers.get('Cache-Control')).toContain('no-store');
    expect(await page.text()).toContain('data-island="OperatorInbox"');
  });
});

describe('send limit', () => {
  it(`a burst of ${MESSAGE_SEND_LIMIT + 30} parallel sends: exactly ${MESSAGE_SEND_LIMIT} are written, the rest 429 with Retry-After`, { timeout: SLOW }, async () => {
    const m = await writer();
    await m.client.csrf();
    const answers = await Promise.all(Array.from({ length: MESSAGE_SEND_LIMIT + 30 }, (_, i) => m.client.post('/api/conversations/support', { body: `flood ${i}` })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(MESSAGE_SEND_LIMIT);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(30);
    expect(Number(refused[0].headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await refused[0].json()) as { message: string }).message).toBe('messages.throttled');
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM messages WHERE user_id = ?').bind(m.id).first<{ n: number }>())!.n).toBe(MESSAGE_SEND_LIMIT);
  });

  it('a refused send (no coins) hands its reservation back', async () => {
    const m = await writer(0);
    for (let i = 0; i < 3; i++) await expectError(await m.client.post('/api/conversations/show', { body: 'tip', showid: 46, pseudoid: 0, tip: 1, coins: 5 }), 422, 'messages.no_coins');
    const row = await env.DB.prepare('SELECT count FROM throttle WHERE key = ?').bind(`msg:${m.id}`).first<{ count: number }>();
    expect(row?.count ?? 0).toBe(0);
  });
});

describe('login, CSRF and hostile input', () => {
  it('every call needs a login (401) and every write the CSRF header (419)', async () => {
    const guest = new Client();
    for (const path of ['/api/conversations', '/api/conversations/count', '/api/conversations/conversation?showid=1&pseudoid=0', '/api/conversations/message/1', '/api/conversations/1/messages', '/api/conversations/support/messages', '/api/studio/conversations', '/api/support/conversations']) {
      await expectError(await guest.get(path), 401, 'unauthenticated');
    }
    for (const path of ['/api/conversations/read', '/api/conversations/read_all', '/api/conversations/unread', '/api/conversations/block/1', '/api/conversations/unblock/1', '/api/conversations/support', '/api/conversations/show']) {
      await expectError(await guest.post(path, {}), 401, 'unauthenticated');
    }
    const m = await registerMember({ verified: true });
    const res = await m.client.post('/api/conversations/support', { body: 'x' }, { csrf: false });
    expect(res.status).toBe(419);
    expect((await m.client.fetch('/api/conversations/1', { method: 'DELETE', csrf: false })).status).toBe(419);
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM messages WHERE user_id = ?').bind(m.id).first<{ n: number }>())!.n).toBe(0);
  });

  it('hostile paths, queries and bodies never give a 5xx', { timeout: SLOW }, async () => {
    const m = await writer(20);
    const performer = await performerOf(45);
    const operator = await operatorClient();
    const hostile = ["'", '"; DROP TABLE messages; --', '%00', '%ff%fe', '..%2F..%2Fetc', '9'.repeat(40), '-1', '1.5', '0x10', 'null', 'undefined', '<script>', encodeURIComponent('😀'.repeat(50)), 'a'.repeat(3000)];
    const gets: string[] = [];
    for (const h of hostile) {
      gets.push(`/api/conversations?page=${h}&order_by=${h}&unread=${h}&showname=${h}&nickname=${h}&limit=${h}&conversations_not=${h}&conversations_not[]=${h}`);
      gets.push(`/api/conversations/conversation?showid=${h}&pseudoid=${h}`, `/api/conversations/message/${h}`, `/api/conversations/${h}/messages?page=${h}&showid=${h}&pseudoid=${h}`);
    }
    for (const path of gets) {
      const res = await m.client.get(path);
      expect(res.status, path).toBeLessThan(500);
    }
    for (const h of hostile) {
      for (const [client, path] of [
        [performer, `/api/studio/conversations?page=${h}`],
        [performer, `/api/studio/conversations/${h}/messages?page=${h}`],
        [operator, `/api/support/conversations/${h}/messages`],
      ] as const) {
        expect((await client.get(path)).status, path).toBeLessThan(500);
      }
      expect((await m.client.del(`/api/conversations/${h}`)).status).toBeLessThan(500);
      expect((await m.client.post(`/api/conversations/block/${h}`)).status).toBeLessThan(500);
      expect((await performer.post(`/api/studio/conversations/${h}/reply`, { body: h })).status).toBeLessThan(500);
    }
    const bodies: unknown[] = [null, [], 'text', 42, { body: null }, { body: 5 }, { body: ['x'] }, { body: { a: 1 } }, { body: 'x', showid: 'abc', pseudoid: 0 }, { body: 'x', showid: 1e30, pseudoid: 0 },
      { body: 'x', showid: 45, pseudoid: -1 }, { body: 'x', showid: 45, pseudoid: 0, coins: 'many', tip: 1 }, { body: 'x', showid: 45, pseudoid: 0, coins: 1e20, tip: 'yes' }, { body: '\u0000\u0000' },
      { ids: [{}] }, { ids: [1e30] }, { ids: null, unread: null }];
    for (const b of bodies) {
      for (const path of ['/api/conversations/show', '/api/conversations/support', '/api/conversations/read', '/api/conversations/unread']) {
        const res = await m.client.post(path, b);
        expect(res.status, `${path} ${JSON.stringify(b)}`).toBeLessThan(500);
      }
    }
    const raw = await m.client.post('/api/conversations/show', '{"body": "x", "showid":', { contentType: 'application/json' });
    expect(raw.status).toBe(422);
    // (Support accepted the bodies that carry a body text; no show message and no coin moved.)
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM messages WHERE user_id = ? AND show_id <> 0').bind(m.id).first<{ n: number }>())!.n).toBe(0);
    expect((await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(m.id).first<{ coins: number }>())!.coins).toBe(20);
  });
});
