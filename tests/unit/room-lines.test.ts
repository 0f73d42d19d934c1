import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatLine, RoomEvent } from '../../src/shared/chat';
import { itemKey, pushNotice, reduceLines, type RoomLines } from '../../src/client/features/chat/room-lines';

// The room client's lines: notices of our own keep their place when a rejoin's welcome merges the
// history and sorts by (server) time, whichever way the browser's clock is off.

const line = (id: string, ts: number): ChatLine => ({ id, from: 's1', nick: 'Ann', role: 'member', text: id, ts });
const welcome = (history: ChatLine[]) => ({ t: 'welcome', history }) as unknown as RoomEvent;
const order = (s: RoomLines) => s.items.map((i) => (i.kind === 'notice' ? i.key : itemKey(i)));

afterEach(() => {
  vi.useRealTimers();
});

describe('room lines: notices after a rejoin', () => {
  it('keeps a notice after the lines before it when the browser clock is behind', () => {
    vi.useFakeTimers({ now: 1_000 });
    const s: RoomLines = { items: [], typing: null };
    reduceLines(s, { t: 'line', line: line('a', 50_000) }, null);
    pushNotice(s, 'notice');
    reduceLines(s, welcome([line('a', 50_000)]), null);
    expect(order(s)).toEqual(['a', 'notice']);
  });

  it('keeps a notice before the lines after it when the browser clock is ahead', () => {
    vi.useFakeTimers({ now: 900_000 });
    const s: RoomLines = { items: [], typing: null };
    reduceLines(s, { t: 'line', line: line('a', 50_000) }, null);
    pushNotice(s, 'notice');
    reduceLines(s, { t: 'line', line: line('b', 51_000) }, null);
    reduceLines(s, welcome([line('a', 50_000), line('b', 51_000), line('c', 52_000)]), null);
    expect(order(s)).toEqual(['a', 'notice', 'b', 'c']);
  });

  it('stamps a notice with the browser clock while nothing is on screen', () => {
    vi.useFakeTimers({ now: 7_000 });
    const s: RoomLines = { items: [], typing: null };
    pushNotice(s, 'notice');
    expect(s.items[0]).toMatchObject({ kind: 'notice', ts: 7_000 });
  });
});
