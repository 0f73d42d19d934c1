import { describe, expect, it, vi } from 'vitest';
import {
  afterSend,
  bumpConversation,
  confirmPlaceholder,
  filtersFromSearch,
  firstUnreadId,
  latestMenuQuery,
  listQuery,
  mergeMessages,
  placeholder,
  PLACEHOLDER_ID,
  readAllUntilSettled,
  searchFromFilters,
  tipUnaffordable,
  unreadTheirs,
  lastTheirs,
  unreadMenuQuery,
  withoutPlaceholder,
  withPlaceholder,
  DEFAULT_FILTERS,
} from '../../src/client/features/messages/messages-logic';
import type { Conversation, Message } from '../../src/shared/messages';

function conv(id: number, messagedate: number): Conversation {
  return {
    id,
    conversationid: id,
    showid: 100 + id,
    pseudoid: 1,
    messageid: id * 10,
    masterreferenceid: `1-${100 + id}`,
    showprofile: { id: 100 + id, showname: `Show ${id}`, online: false, universalId: `u${id}`, slugName: `show-${id}`, thumb: '' },
    support: false,
    block: { memberstatus: 0, showstatus: 0 },
    messagebody: `last ${id}`,
    messagedate,
    lastchatdate: null,
    memberpseudo: 'Guest-1',
    unread: 0,
  };
}

function msg(messageid: number, time: number, over: Partial<Message> = {}): Message {
  return { messageid, conversationid: 1, body: `m${messageid}`, message: `m${messageid}`, author: 'show', time, unread: 0, tip: 0, ...over };
}

describe('conversation list queries', () => {
  it('sends the show-name filter only from 3 characters and the nickname only when not empty', () => {
    expect(listQuery({ ...DEFAULT_FILTERS, showname: 'ab', nickname: '' })).toEqual({ page: 1, order_by: 'messagedate', unread: undefined, showname: undefined, nickname: undefined });
    expect(listQuery({ ...DEFAULT_FILTERS, showname: ' abc ', nickname: 'x', unread: true, page: 2 })).toEqual({ page: 2, order_by: 'messagedate', unread: 1, showname: 'abc', nickname: 'x' });
  });

  it('ignores an unknown order (messagedate applies) and reads filters back from the address', () => {
    expect(filtersFromSearch('?order_by=evil&page=-3').order_by).toBe('messagedate');
    expect(filtersFromSearch('?order_by=evil&page=-3').page).toBe(1);
    const f = filtersFromSearch('?order_by=online&unread=1&showname=Mia&nickname=Guest&page=4');
    expect(f).toEqual({ order_by: 'online', unread: true, showname: 'Mia', nickname: 'Guest', page: 4 });
    expect(filtersFromSearch(searchFromFilters(f))).toEqual(f);
    expect(searchFromFilters(DEFAULT_FILTERS)).toBe('');
  });

  it('the menu asks for 50 unread, then the 3 latest by online without the unread ones', () => {
    expect(unreadMenuQuery()).toEqual({ unread: 1, limit: 50 });
    expect(latestMenuQuery([4, 9])).toEqual({ order_by: 'online', limit: 3, conversations_not: '4,9' });
    expect(latestMenuQuery([]).conversations_not).toBeUndefined();
  });
});

describe('placeholder while sending', () => {
  it('appears at once with id -1, last, and only once', () => {
    const list = [msg(1, 100), msg(2, 200)];
    const p = placeholder(1, 'hello', 5, 300_000);
    expect(p).toMatchObject({ messageid: PLACEHOLDER_ID, author: 'member', body: 'hello', tip: 5, time: 300 });
    const once = withPlaceholder(withPlaceholder(list, p), p);
    expect(once.map((m) => m.messageid)).toEqual([1, 2, -1]);
  });

  it('is removed when sending fails, and replaced by the sent message when it succeeds', () => {
    const list = withPlaceholder([msg(1, 100)], placeholder(1, 'hi', 0, 200_000));
    expect(withoutPlaceholder(list).map((m) => m.messageid)).toEqual([1]);
    const sent = msg(7, 200, { author: 'member', body: 'hi' });
    expect(confirmPlaceholder(list, sent).map((m) => m.messageid)).toEqual([1, 7]);
    // A reload that already brought the message leaves it once.
    expect(confirmPlaceholder([...list, sent], sent).map((m) => m.messageid)).toEqual([1, 7]);
  });
});

describe('thread merging and the New marker', () => {
  it('merges pages by time, each id once, the later copy winning', () => {
    const merged = mergeMessages([msg(3, 300, { unread: 1 }), msg(1, 100)], [msg(2, 200), msg(3, 300, { unread: 0 })]);
    expect(merged.map((m) => m.messageid)).toEqual([1, 2, 3]);
    expect(merged[2].unread).toBe(0);
  });

  it('puts the marker before the first unread message of the other side', () => {
    const list = [msg(1, 100), msg(2, 150, { author: 'member', unread: 1 }), msg(3, 200, { unread: 1 }), msg(4, 300, { unread: 1 })];
    expect(firstUnreadId(list)).toBe(3);
    expect(firstUnreadId([msg(1, 100)])).toBeNull();
  });

  it('reading marks the unread messages of the other side; unread again marks their newest one', () => {
    const list = [msg(1, 100, { unread: 1 }), msg(2, 150, { author: 'member', unread: 1 }), msg(3, 200, { unread: 1 }), msg(4, 300), msg(5, 400, { author: 'member' })];
    expect(unreadTheirs(withPlaceholder(list, placeholder(1, 'x', 0, 500_000)))).toEqual([1, 3]);
    expect(lastTheirs(list)).toBe(4);
    expect(lastTheirs([msg(2, 150, { author: 'member' })])).toBeNull();
  });
});

describe('a conversation with a newer message', () => {
  it('moves to the top when the list is ordered by message date', () => {
    const list = [conv(1, 300), conv(2, 200), conv(3, 100)];
    const sent = msg(99, 400, { author: 'member', body: 'new one' });
    const next = bumpConversation(list, afterSend(list[2], sent), 'messagedate');
    expect(next.map((c) => c.id)).toEqual([3, 1, 2]);
    expect(next[0]).toMatchObject({ messagebody: 'new one', messagedate: 400, messageid: 99 });
  });

  it('keeps its place (with the new text) under another order', () => {
    const list = [conv(1, 300), conv(2, 200), conv(3, 100)];
    const next = bumpConversation(list, afterSend(list[2], msg(99, 400, { body: 'x' })), 'online');
    expect(next.map((c) => c.id)).toEqual([1, 2, 3]);
    expect(next[2].messagebody).toBe('x');
  });

  it('a conversation new to the list is put first', () => {
    expect(bumpConversation([conv(1, 300)], conv(5, 500), 'messagedate').map((c) => c.id)).toEqual([5, 1]);
  });
});

describe('read all', () => {
  it('repeats until the unread count reaches 0', async () => {
    const left = [5, 2, 0];
    const call = vi.fn(async () => left.shift() ?? 0);
    expect(await readAllUntilSettled(call)).toBe(0);
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('stops when the count stops changing, and never loops forever', async () => {
    const stuck = vi.fn(async () => 3);
    expect(await readAllUntilSettled(stuck)).toBe(3);
    expect(stuck).toHaveBeenCalledTimes(2);
    let n = 1000;
    const falling = vi.fn(async () => --n);
    await readAllUntilSettled(falling, 10);
    expect(falling).toHaveBeenCalledTimes(10);
  });
});

describe('tips', () => {
  it('a tip above the balance cannot be sent; no tip always can', () => {
    expect(tipUnaffordable(10, 5)).toBe(true);
    expect(tipUnaffordable(5, 5)).toBe(false);
    expect(tipUnaffordable(0, 0)).toBe(false);
    expect(tipUnaffordable(5, null)).toBe(true);
  });
});
