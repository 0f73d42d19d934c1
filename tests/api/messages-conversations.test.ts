import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  CONVERSATIONS_LIMIT_MAX,
  CONVERSATIONS_PAGE_SIZE,
  MESSAGES_PAGE_SIZE,
  READ_ALL_BATCH,
  type BlockAnswer,
  type Conversation,
  type ConversationList,
  type ConversationMessages,
  type Counts,
  type Message,
} from '../../src/shared/messages';
import { expectError, expectJson } from './helpers';
import { performerOf } from './chat-helpers';
import { countsOf, reply, sendOk, sendShow, writer, type Writer } from './messages-helpers';

// Issue 14, the member's conversation calls (spec part 2 section 7 "Conversations", rules of
// sections 4, 5, 9): list with order, filters, limit and exclusions; counts; read, read_all,
// unread; block; delete; a conversation by show and pseudonym; messages paged; support.

const SLOW = 60_000;
const list = (m: Writer, query = '') => m.client.get(`/api/conversations${query}`).then((r) => expectJson<ConversationList>(r, 200));

/** The member writes to each show and each performer answers once (unread 1 per conversation). */
async function threads(m: Writer, showIds: number[]): Promise<Conversation[]> {
  const out: Conversation[] = [];
  for (const id of showIds) {
    const sent = await sendOk(m, id, `Hello show ${id}`);
    expect((await reply(await performerOf(id), sent.conversation.id, `Answer of ${id}`)).status).toBe(200);
    out.push(sent.conversation);
  }
  return out;
}

/** Puts messages of a conversation at known times (unix s) so the order is not by accident. */
async function dateConversation(id: number, at: number): Promise<void> {
  await env.DB.batch([
    env.DB.prepare('UPDATE conversations SET last_message_at = ? WHERE id = ?').bind(at, id),
    env.DB.prepare('UPDATE messages SET created_at = ? WHERE conversation_id = ?').bind(at, id),
  ]);
}

describe('GET conversations: order, filters, limit, paging', () => {
  it('orders by messagedate by default (newest first), by lastchatdate and by online; other values are ignored', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a, b, c] = await threads(m, [11, 12, 13]);
    await dateConversation(a.id, 3000);
    await dateConversation(b.id, 2000);
    await dateConversation(c.id, 1000);
    await env.DB.prepare('UPDATE shows SET online = CASE id WHEN 13 THEN 1 ELSE 0 END WHERE id IN (11, 12, 13)').run();
    await env.DB.prepare("INSERT INTO chat_sessions (id, show_id, user_id, visitor, nick, type, state, price, created_at) VALUES (?, 12, ?, 'v', 'n', 'private', 'ended', 5, 5000000)")
      .bind(`msg-test-${m.id}`, m.id)
      .run();
    const ids = (l: ConversationList) => l.data.map((x) => x.id);
    expect(ids(await list(m))).toEqual([a.id, b.id, c.id]);
    expect(ids(await list(m, '?order_by=messagedate'))).toEqual([a.id, b.id, c.id]);
    expect(ids(await list(m, '?order_by=bogus'))).toEqual([a.id, b.id, c.id]);
    expect(ids(await list(m, '?order_by=online'))).toEqual([c.id, a.id, b.id]);
    const byChat = await list(m, '?order_by=lastchatdate');
    expect(ids(byChat)).toEqual([b.id, a.id, c.id]);
    expect(byChat.data[0].lastchatdate).toBe(5000);
    expect(byChat.data[0].showprofile).toMatchObject({ id: 12, online: false });
  });

  it('unread=1 lists only conversations with unread messages; limit caps the page; conversations_not leaves ids out', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a, b, c] = await threads(m, [14, 15, 16]);
    await expectJson(await m.client.post('/api/conversations/read', { ids: [(await list(m)).data.find((x) => x.id === b.id)!.messageid] }), 200);
    const unread = await list(m, '?unread=1&limit=50');
    expect(unread.data.map((x) => x.id).sort()).toEqual([a.id, c.id].sort());
    expect(unread.total).toBe(2);
    // The latest list of the spec: order online, limit 3, without the unread ones.
    const latest = await list(m, `?order_by=online&limit=3&conversations_not=${a.id},${c.id}`);
    expect(latest.data.map((x) => x.id)).toEqual([b.id]);
    const latestArray = await list(m, `?conversations_not[]=${a.id}&conversations_not[]=${b.id}`);
    expect(latestArray.data.map((x) => x.id)).toEqual([c.id]);
    const one = await list(m, '?limit=1&page=2');
    expect(one).toMatchObject({ current_page: 2, last_page: 3, total: 3 });
    expect(one.data).toHaveLength(1);
  });

  it('limit: default page size, capped at the maximum, malformed values fall back', async () => {
    const m = await writer();
    for (const q of ['', '?limit=0', '?limit=-3', '?limit=abc', '?limit=99999999999']) {
      const l = await list(m, q);
      expect(l).toEqual({ data: [], current_page: 1, last_page: 1, total: 0 });
    }
  });

  it(`caps limit at ${CONVERSATIONS_LIMIT_MAX} (the unread list limit) even when more are asked for`, { timeout: SLOW }, async () => {
    const m = await writer();
    const shows = Array.from({ length: 52 }, (_, i) => 100 + i);
    const now = Math.floor(Date.now() / 1000);
    await env.DB.batch(
      shows.map((s) => env.DB.prepare("INSERT INTO conversations (user_id, show_id, pseudo_id, member_pseudo, last_message_at, created_at) VALUES (?, ?, 0, 'Fan-X', ?, ?)").bind(m.id, s, now - s, now)),
    );
    const l = await list(m, '?limit=500');
    expect(l.data).toHaveLength(CONVERSATIONS_LIMIT_MAX);
    expect(l).toMatchObject({ total: 52, last_page: 2 });
    expect((await list(m)).data).toHaveLength(CONVERSATIONS_PAGE_SIZE);
  });

  it('the show-name filter applies from 3 characters; the nickname filter by nickname id (above 0) or text', { timeout: SLOW }, async () => {
    const m = await writer();
    const names = await env.DB.prepare('SELECT id, name FROM shows WHERE id IN (17, 18) ORDER BY id').all<{ id: number; name: string }>();
    const [s17, s18] = names.results;
    const first = await sendOk(m, 17, 'under my own pseudonym');
    const second = await expectJson<{ conversation: Conversation }>(await sendShow(m, { body: 'under my nickname', showid: 18, pseudoid: m.nickId }), 200);
    expect(second.conversation.memberpseudo).toBe(m.nick);
    const all = [first.conversation.id, second.conversation.id].sort();
    // Below 3 characters the filter is not applied.
    expect((await list(m, `?showname=${encodeURIComponent(s17.name.slice(0, 2))}`)).data.map((x) => x.id).sort()).toEqual(all);
    expect((await list(m, `?showname=${encodeURIComponent(s17.name.slice(0, 3))}`)).data.map((x) => x.showid)).toContain(17);
    expect((await list(m, `?showname=${encodeURIComponent(s18.name)}`)).data.map((x) => x.id)).toEqual([second.conversation.id]);
    expect((await list(m, '?showname=zzzqqq')).data).toEqual([]);
    expect((await list(m, `?nickname=${m.nickId}`)).data.map((x) => x.id)).toEqual([second.conversation.id]);
    expect((await list(m, '?nickname=0')).data.map((x) => x.id).sort()).toEqual(all);
    expect((await list(m, `?nickname=${encodeURIComponent(m.nick.slice(0, 4))}`)).data.map((x) => x.id)).toEqual([second.conversation.id]);
    // LIKE wildcards are plain text.
    expect((await list(m, '?showname=%25%25%25')).data).toEqual([]);
    expect((await list(m, '?nickname=___')).data).toEqual([]);
  });

  it('a conversation that gets a newer message moves to the top', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a, b] = await threads(m, [19, 20]);
    await dateConversation(a.id, 1000);
    await dateConversation(b.id, 2000);
    expect((await list(m)).data.map((x) => x.id)).toEqual([b.id, a.id]);
    await sendOk(m, 19, 'again');
    const after = await list(m);
    expect(after.data.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(after.data[0].messagebody).toBe('again');
  });
});

describe('counts, read, read_all, unread', () => {
  it('counts all and per conversation; read {ids} and unread {ids, unread} change them', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a, b] = await threads(m, [21, 22]);
    expect(await countsOf(m)).toEqual({ all: 2, [a.id]: 1, [b.id]: 1 });
    const msgs = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${a.id}/messages`), 200);
    const answer = msgs.messages.data.find((x) => x.author === 'show')!;
    expect(answer.unread).toBe(1);
    expect(await expectJson<Counts>(await m.client.post('/api/conversations/read', { ids: [answer.messageid] }), 200)).toEqual({ all: 1, [b.id]: 1 });
    expect((await expectJson<Message>(await m.client.get(`/api/conversations/message/${answer.messageid}`), 200)).unread).toBe(0);
    expect(await expectJson<Counts>(await m.client.post('/api/conversations/unread', { ids: [answer.messageid], unread: 1 }), 200)).toEqual({ all: 2, [a.id]: 1, [b.id]: 1 });
    expect(await expectJson<Counts>(await m.client.post('/api/conversations/unread', { ids: [answer.messageid], unread: false }), 200)).toEqual({ all: 1, [b.id]: 1 });
    // The member's own messages never count as unread and cannot be made unread.
    const own = msgs.messages.data.find((x) => x.author === 'member')!;
    expect(await expectJson<Counts>(await m.client.post('/api/conversations/unread', { ids: [own.messageid], unread: true }), 200)).toEqual({ all: 1, [b.id]: 1 });
  });

  it(`read_all marks at most ${READ_ALL_BATCH} per call and reaches 0 when repeated`, { timeout: SLOW }, async () => {
    const m = await writer();
    const sent = await sendOk(m, 23, 'many answers please');
    const now = Math.floor(Date.now() / 1000);
    const rows = Array.from({ length: READ_ALL_BATCH + 20 }, () =>
      env.DB.prepare("INSERT INTO messages (conversation_id, user_id, show_id, author, body, created_at) VALUES (?, ?, 23, 'show', 'x', ?)").bind(sent.conversation.id, m.id, now),
    );
    for (let i = 0; i < rows.length; i += 100) await env.DB.batch(rows.slice(i, i + 100));
    expect((await countsOf(m)).all).toBe(READ_ALL_BATCH + 20);
    expect((await expectJson<Counts>(await m.client.post('/api/conversations/read_all', {}), 200)).all).toBe(20);
    expect(await expectJson<Counts>(await m.client.post('/api/conversations/read_all', {}), 200)).toEqual({ all: 0 });
    expect(await expectJson<Counts>(await m.client.post('/api/conversations/read_all'), 200)).toEqual({ all: 0 });
  });

  it('read and unread refuse bad ids with 422 and change nothing', async () => {
    const m = await writer();
    for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: [0] }, { ids: [-1] }, { ids: [1.5] }, { ids: Array.from({ length: 201 }, (_, i) => i + 1) }]) {
      await expectError(await m.client.post('/api/conversations/read', body), 422, 'validation_failed');
    }
    await expectError(await m.client.post('/api/conversations/unread', { ids: [1] }), 422, 'validation_failed', ['unread', 'messages.invalid']);
    await expectError(await m.client.post('/api/conversations/unread', { ids: [1], unread: 'maybe' }), 422, 'validation_failed');
  });
});

describe('block and unblock', () => {
  it('flips memberstatus, stops messages both ways, takes the unread out of the count and back', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a] = await threads(m, [24]);
    expect((await countsOf(m)).all).toBe(1);
    const blocked = await expectJson<BlockAnswer>(await m.client.post('/api/conversations/block/24'), 200);
    expect(blocked).toEqual({ showid: 24, block: { memberstatus: 1, showstatus: 0 }, counts: { all: 0 } });
    expect((await list(m)).data[0].block).toEqual({ memberstatus: 1, showstatus: 0 });
    await expectError(await sendShow(m, { body: 'hi', showid: 24, pseudoid: 0 }), 403, 'messages.blocked');
    await expectError(await reply(await performerOf(24), a.id), 403, 'messages.blocked');
    const unblocked = await expectJson<BlockAnswer>(await m.client.post('/api/conversations/unblock/24'), 200);
    expect(unblocked).toEqual({ showid: 24, block: { memberstatus: 0, showstatus: 0 }, counts: { all: 1, [a.id]: 1 } });
    await sendOk(m, 24, 'back again');
  });

  it('block of an unknown or malformed show id is 404', async () => {
    const m = await writer();
    for (const id of ['0', '999999', 'abc', '-1', '1e3']) await expectError(await m.client.post(`/api/conversations/block/${id}`), 404, 'messages.not_found');
    await expectError(await m.client.post('/api/conversations/unblock/999999'), 404, 'messages.not_found');
  });
});

describe('delete', () => {
  it('DELETE conversations/{id} removes it from the list and the counts; a new message brings it back without the old ones', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a] = await threads(m, [25]);
    expect(await expectJson<Counts>(await m.client.del(`/api/conversations/${a.id}`), 200)).toEqual({ all: 0 });
    expect((await list(m)).data).toEqual([]);
    await expectError(await m.client.del(`/api/conversations/${a.id}`), 404, 'messages.not_found');
    expect((await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${a.id}/messages`), 200)).messages.data).toEqual([]);
    const again = await sendOk(m, 25, 'new start');
    expect(again.conversation.id).toBe(a.id);
    const msgs = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${a.id}/messages`), 200);
    expect(msgs.messages.data.map((x) => x.body)).toEqual(['new start']);
  });

  it('DELETE conversations/message/{id} removes one message from the member view', { timeout: SLOW }, async () => {
    const m = await writer();
    const [a] = await threads(m, [26]);
    const msgs = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${a.id}/messages`), 200);
    const answer = msgs.messages.data.find((x) => x.author === 'show')!;
    expect(await expectJson<Counts>(await m.client.del(`/api/conversations/message/${answer.messageid}`), 200)).toEqual({ all: 0 });
    await expectError(await m.client.get(`/api/conversations/message/${answer.messageid}`), 404, 'messages.not_found');
    await expectError(await m.client.del(`/api/conversations/message/${answer.messageid}`), 404, 'messages.not_found');
    const after = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${a.id}/messages`), 200);
    expect(after.messages.data.map((x) => x.author)).toEqual(['member']);
    expect(after.conversation.messagebody).toBe('Hello show 26');
  });
});

describe('a conversation by show and pseudonym, messages paged, support', () => {
  it('GET conversations/conversation needs showid and pseudoid; answers id 0 before the first message, then the conversation', async () => {
    const m = await writer();
    await expectError(await m.client.get('/api/conversations/conversation'), 422, 'validation_failed', ['showid', 'messages.invalid']);
    await expectError(await m.client.get('/api/conversations/conversation?showid=27'), 422, 'validation_failed', ['pseudoid', 'messages.invalid']);
    await expectError(await m.client.get('/api/conversations/conversation?showid=999999&pseudoid=0'), 404, 'messages.not_found');
    const draft = await expectJson<Conversation>(await m.client.get('/api/conversations/conversation?showid=27&pseudoid=0'), 200);
    expect(draft).toMatchObject({ id: 0, showid: 27, pseudoid: 0, messageid: null, messagebody: '', unread: 0, block: { memberstatus: 0, showstatus: 0 } });
    expect(draft.showprofile).toMatchObject({ id: 27 });
    const sent = await sendOk(m, 27, 'first');
    const found = await expectJson<Conversation>(await m.client.get('/api/conversations/conversation?showid=27&pseudoid=0'), 200);
    expect(found).toMatchObject({ id: sent.conversation.id, messageid: sent.message.messageid, messagebody: 'first' });
    const byKey = await expectJson<ConversationMessages>(await m.client.get('/api/conversations/0/messages?showid=27&pseudoid=0'), 200);
    expect(byKey.conversation.id).toBe(sent.conversation.id);
  });

  it('messages are paged newest page first, oldest first within a page', { timeout: SLOW }, async () => {
    const m = await writer();
    const first = await sendOk(m, 28, 'm0');
    const now = Math.floor(Date.now() / 1000);
    await env.DB.batch(
      Array.from({ length: MESSAGES_PAGE_SIZE + 4 }, (_, i) =>
        env.DB.prepare("INSERT INTO messages (conversation_id, user_id, show_id, author, body, created_at, read_member) VALUES (?, ?, 28, 'member', ?, ?, 1)").bind(first.conversation.id, m.id, `m${i + 1}`, now),
      ),
    );
    const p1 = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${first.conversation.id}/messages`), 200);
    expect(p1.messages).toMatchObject({ current_page: 1, last_page: 2, total: MESSAGES_PAGE_SIZE + 5 });
    expect(p1.messages.data.at(-1)!.body).toBe(`m${MESSAGES_PAGE_SIZE + 4}`);
    const p2 = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${first.conversation.id}/messages?page=2`), 200);
    expect(p2.messages.data.map((x) => x.body)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    const p9 = await expectJson<ConversationMessages>(await m.client.get(`/api/conversations/${first.conversation.id}/messages?page=9`), 200);
    expect(p9.messages.data).toEqual([]);
  });

  it('POST conversations/support {body}; the support thread at support/messages; a body is needed', { timeout: SLOW }, async () => {
    const m = await writer();
    const empty = await expectJson<ConversationMessages>(await m.client.get('/api/conversations/support/messages'), 200);
    expect(empty.conversation).toMatchObject({ id: 0, support: true, showprofile: null });
    expect(empty.messages.data).toEqual([]);
    await expectError(await m.client.post('/api/conversations/support', {}), 422, 'validation_failed', ['body', 'messages.body_required']);
    await expectError(await m.client.post('/api/conversations/support', { body: '   ' }), 422, 'validation_failed', ['body', 'messages.body_required']);
    await expectError(await m.client.post('/api/conversations/support', { body: 'x'.repeat(2001) }), 422, 'validation_failed', ['body', 'messages.body_too_long']);
    const sent = await expectJson<{ conversation: Conversation; message: Message }>(await m.client.post('/api/conversations/support', { body: '  How do I buy coins?  ' }), 200);
    expect(sent.message).toMatchObject({ body: 'How do I buy coins?', author: 'member', unread: 0, tip: 0 });
    expect(sent.conversation).toMatchObject({ showid: 0, support: true, showprofile: null, masterreferenceid: '' });
    const thread = await expectJson<ConversationMessages>(await m.client.get('/api/conversations/support/messages'), 200);
    expect(thread.conversation.id).toBe(sent.conversation.id);
    expect(thread.messages.data.map((x) => x.body)).toEqual(['How do I buy coins?']);
    // Support is not in the show list.
    expect((await list(m)).data).toEqual([]);
  });

  it('POST conversations/show needs body, showid and pseudoid; a foreign nickname id is refused', async () => {
    const m = await writer();
    const other = await writer();
    await expectError(await sendShow(m, { showid: 29, pseudoid: 0 }), 422, 'validation_failed', ['body', 'messages.body_required']);
    await expectError(await sendShow(m, { body: 'x', pseudoid: 0 }), 422, 'validation_failed', ['showid', 'messages.invalid']);
    await expectError(await sendShow(m, { body: 'x', showid: 29 }), 422, 'validation_failed', ['pseudoid', 'messages.invalid']);
    await expectError(await sendShow(m, { body: 'x', showid: 999999, pseudoid: 0 }), 404, 'messages.not_found');
    await expectError(await sendShow(m, { body: 'x', showid: 29, pseudoid: other.nickId }), 422, 'messages.invalid_pseudo', ['pseudoid', 'messages.invalid_pseudo']);
    await expectError(await sendShow(m, { body: 'x', showid: 29, pseudoid: 0, tip: true }), 422, 'validation_failed', ['coins', 'messages.invalid']);
    expect((await list(m)).total).toBe(0);
  });
});
