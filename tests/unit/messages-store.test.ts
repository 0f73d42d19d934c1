// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../../src/client/lib/api';
import { createMessagesView, loadList, loadThread, markThreadRead, markThreadUnread, readAll, sendMessage, toggleBlock } from '../../src/client/features/messages/messages-store';
import type { Conversation, Message } from '../../src/shared/messages';
import { followCount, refreshCount } from '../../src/client/features/messages/unread-count';
import { testStore } from './client-state';

// The messages view's actions against a fake server: what the member sees while sending, after a
// failure, after reading, and the unread badge they feed.

type Handler = (url: string, init: RequestInit) => Promise<Response> | Response;
let handler: Handler;
let calls: { url: string; body: unknown }[];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  calls = [];
  document.cookie = 'XSRF-TOKEN=tok; Path=/';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return handler(url, init);
  });
});
afterEach(() => vi.unstubAllGlobals());

const member = { id: 1, name: 'demo', email: 'd@x', coins: 50, is_verified: true, age_verified: true, newsletter: false, nicknames: { data: [], current_nickname: null }, performer_show: null };

function conv(id: number, over: Partial<Conversation> = {}): Conversation {
  return {
    id,
    conversationid: id,
    showid: 10 + id,
    pseudoid: 0,
    masterreferenceid: `1-${10 + id}`,
    messageid: 100 + id,
    showprofile: { id: 10 + id, showname: `Show ${id}`, online: true, universalId: `u${id}`, slugName: `s${id}`, thumb: '' },
    support: false,
    block: { memberstatus: 0, showstatus: 0 },
    messagebody: `old ${id}`,
    messagedate: 1000 - id,
    lastchatdate: null,
    memberpseudo: 'Fan-1',
    unread: 0,
    ...over,
  };
}
const message = (messageid: number, over: Partial<Message> = {}): Message => ({ messageid, conversationid: 3, body: `m${messageid}`, message: `m${messageid}`, author: 'show', time: 500 + messageid, unread: 0, tip: 0, ...over });
const paged = <T>(data: T[]) => ({ data, current_page: 1, last_page: 1, total: data.length });

function setup() {
  const store = testStore({ user: member });
  createApi(store, () => undefined);
  const view = createMessagesView(undefined, { kind: 'conversation', id: 3 });
  return { store, view };
}

describe('sending a message', () => {
  it('shows the placeholder (-1) until the answer, then the sent message; the conversation moves to the top and the tip leaves the balance', async () => {
    const { store, view } = setup();
    handler = (url) => (url.startsWith('/api/conversations?') ? json(paged([conv(1), conv(2), conv(3)])) : json({ conversation: conv(3), messages: paged([message(1)]) }));
    await loadList(view);
    await loadThread(view, store);
    let answer!: (r: Response) => void;
    handler = () => new Promise<Response>((r) => (answer = r));
    const sending = sendMessage(view, store, 'hello', 10, 900_000);
    await vi.waitFor(() => expect(calls.at(-1)?.url).toBe('/api/conversations/show'));
    expect(view.thread.messages.map((m) => m.messageid)).toEqual([1, -1]);
    expect(view.thread.sending).toBe(true);
    expect(calls.at(-1)?.body).toEqual({ body: 'hello', showid: 13, pseudoid: 0, coins: 10, tip: true });
    const sent = message(77, { author: 'member', body: 'hello', time: 900, tip: 10 });
    answer(json({ message: sent, conversation: conv(3, { messageid: 77, messagebody: 'hello', messagedate: 900 }), counts: { all: 4 }, user: { coins: 40 } }));
    expect(await sending).toBe(true);
    expect(view.thread.messages.map((m) => m.messageid)).toEqual([1, 77]);
    expect(view.list.data.map((c) => c.id)).toEqual([3, 1, 2]);
    expect(view.list.data[0].messagebody).toBe('hello');
    expect(store.user?.coins).toBe(40);
    expect(store.messagesCount).toBe(4);
  });

  it('removes the placeholder when sending fails and keeps the error code (no coins)', async () => {
    const { store, view } = setup();
    handler = () => json({ conversation: conv(3), messages: paged([message(1)]) });
    await loadThread(view, store);
    handler = () => json({ message: 'messages.no_coins', errors: { coins: ['messages.no_coins'] } }, 422);
    expect(await sendMessage(view, store, 'tip', 25)).toBe(false);
    expect(view.thread.messages.map((m) => m.messageid)).toEqual([1]);
    expect(view.thread.sendError).toBe('messages.no_coins');
    expect(view.thread.sending).toBe(false);
  });

  it('a network failure removes it too', async () => {
    const { store, view } = setup();
    handler = () => json({ conversation: conv(3), messages: paged([]) });
    await loadThread(view, store);
    handler = () => Promise.reject(new TypeError('offline'));
    expect(await sendMessage(view, store, 'x', 0)).toBe(false);
    expect(view.thread.messages).toEqual([]);
    expect(view.thread.sendError).toBe('network_error');
  });
});

describe('reading', () => {
  it('opening a thread sets the New marker and reads the unread messages of the show; the badge follows the answer', async () => {
    const { store, view } = setup();
    store.messagesCount = 3;
    handler = (url) =>
      url.startsWith('/api/conversations/3/messages')
        ? json({ conversation: conv(3, { unread: 2 }), messages: paged([message(1), message(2, { author: 'member' }), message(3, { unread: 1 }), message(4, { unread: 1 })]) })
        : json({ all: 1, 5: 1 });
    await loadThread(view, store);
    expect(view.thread.newMarker).toBe(3);
    expect(calls.at(-1)).toEqual({ url: '/api/conversations/read', body: { ids: [3, 4] } });
    expect(view.thread.messages.every((m) => m.unread === 0)).toBe(true);
    expect(store.messagesCount).toBe(1);
    expect(view.thread.conversation?.unread).toBe(0);
  });

  it('a page of the thread fetched before the read was answered does not bring the unread flag back', async () => {
    const { store, view } = setup();
    // The first page is unread; a second fetch (a push while reading) is answered by the server
    // before the read but arrives after it.
    let pages = 0;
    let releaseLate: () => void = () => undefined;
    const late = new Promise<void>((r) => (releaseLate = r));
    handler = async (url) => {
      if (url.startsWith('/api/conversations/3/messages')) {
        const page = json({ conversation: conv(3, { unread: 1 }), messages: paged([message(1), message(2, { unread: 1 })]) });
        if (++pages === 2) await late;
        return page;
      }
      return json({ all: 0, 3: 0 });
    };
    await loadThread(view, store);
    expect(view.thread.messages.find((m) => m.messageid === 2)?.unread).toBe(0);
    const reload = loadThread(view, store, { quiet: true, markRead: false });
    await Promise.resolve();
    await markThreadUnread(view, store);
    expect(view.thread.messages.find((m) => m.messageid === 2)?.unread).toBe(1);
    await markThreadRead(view, store);
    releaseLate();
    await reload;
    expect(view.thread.messages.find((m) => m.messageid === 2)?.unread).toBe(0);
  });

  it('read-all repeats until the count reaches 0, then reloads the list', async () => {
    const { store, view } = setup();
    const left = [600, 100, 0];
    handler = (url) => (url === '/api/conversations/read_all' ? json({ all: left.shift() }) : json(paged([conv(1)])));
    expect(await readAll(view, store)).toBe(0);
    expect(calls.filter((c) => c.url === '/api/conversations/read_all')).toHaveLength(3);
    expect(store.messagesCount).toBe(0);
    expect(calls.at(-1)?.url.startsWith('/api/conversations?')).toBe(true);
  });
});

describe('blocking', () => {
  it('flips memberstatus in the thread and the list, then loads the messages again', async () => {
    const { store, view } = setup();
    handler = (url) => (url.startsWith('/api/conversations?') ? json(paged([conv(3)])) : json({ conversation: conv(3), messages: paged([message(1)]) }));
    await loadList(view);
    await loadThread(view, store);
    handler = (url) => (url === '/api/conversations/block/13' ? json({ showid: 13, block: { memberstatus: 1, showstatus: 0 }, counts: { all: 0 } }) : json({ conversation: conv(3, { block: { memberstatus: 1, showstatus: 0 } }), messages: paged([message(1)]) }));
    const before = calls.length;
    await toggleBlock(view, store);
    expect(view.thread.conversation?.block.memberstatus).toBe(1);
    expect(view.list.data[0].block.memberstatus).toBe(1);
    expect(calls.slice(before).map((c) => c.url)).toEqual(['/api/conversations/block/13', '/api/conversations/3/messages?page=1']);
  });
});

describe('the unread badge in order', () => {
  it('ignores a count that was read before a later call answered (a slow poll after read-all)', async () => {
    const { store, view } = setup();
    store.messagesCount = 2;
    let answerPoll: (r: Response) => void = () => undefined;
    handler = (url) => {
      if (url.includes('/conversations/count')) return new Promise<Response>((resolve) => (answerPoll = resolve));
      if (url.includes('/read_all')) return json({ all: 0 });
      return json(paged([]));
    };
    const slowPoll = refreshCount(store); // read the database before the read-all
    await readAll(view, store);
    expect(store.messagesCount).toBe(0);
    answerPoll(json({ all: 2 }));
    await slowPoll;
    expect(store.messagesCount).toBe(0);
  });

  it('a push makes the followers read the count once, however many islands follow it', async () => {
    const { store } = setup();
    handler = () => json({ all: 4 });
    const stop = [followCount(store), followCount(store)];
    store.messagesPushes++;
    await vi.waitFor(() => expect(store.messagesCount).toBe(4));
    expect(calls.filter((c) => c.url.includes('/conversations/count'))).toHaveLength(1);
    for (const s of stop) s();
    store.messagesPushes++;
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.filter((c) => c.url.includes('/conversations/count'))).toHaveLength(1);
  });
});
