import { describe, expect, it } from 'vitest';
import { CHAT_RATE_BURST, CHAT_TEXT_MAX } from '../../src/shared/chat';
import { cleanText, dueMinute, minuteStart, parseCommand, roomMode, takeToken, visibleLines, type ShowConf } from '../../src/server/realtime/room-logic';
import { chatNick, effectiveType, startRefusal, type ChatShowRow, type StartCheck } from '../../src/server/features/chat/chat-rules';
import type { User } from '../../src/shared/session';

describe('room billing schedule', () => {
  it('minute n starts at start + (n-1) minutes, whatever time the alarm runs', () => {
    expect(dueMinute(1000, 60_000, 1000)).toBe(1);
    expect(dueMinute(1000, 60_000, 60_999)).toBe(1);
    expect(dueMinute(1000, 60_000, 61_000)).toBe(2);
    // A late alarm (three minutes late) sees every missed minute as due.
    expect(dueMinute(1000, 60_000, 1000 + 4 * 60_000 + 5)).toBe(5);
    expect(minuteStart(1000, 60_000, 3)).toBe(121_000);
    expect(dueMinute(1000, 60_000, 0)).toBe(1);
  });
});

describe('room chat rules', () => {
  it('token bucket: a burst, then one line per second', () => {
    let b = takeToken(undefined, 0);
    for (let i = 1; i < CHAT_RATE_BURST; i++) b = takeToken(b!, 0);
    expect(b).not.toBeNull();
    expect(takeToken(b!, 0)).toBeNull();
    expect(takeToken(b!, 999)).toBeNull();
    expect(takeToken(b!, 1000)).not.toBeNull();
  });

  it('text: control characters out, trimmed, capped in characters, empty is null', () => {
    expect(cleanText(' a\u0000b\nc ')).toBe('a b c');
    expect(cleanText('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
    expect([...cleanText('😀'.repeat(CHAT_TEXT_MAX + 3))!].length).toBe(CHAT_TEXT_MAX);
    expect(cleanText('   ')).toBeNull();
    expect(cleanText(5)).toBeNull();
  });

  it('commands: malformed ones are null', () => {
    expect(parseCommand('{"t":"say","text":"hi"}')).toEqual({ t: 'say', text: 'hi' });
    expect(parseCommand('{"t":"say","text":"hi","to":"x"}')).toBeNull();
    expect(parseCommand('{"t":"kick","sessionId":"abcdefgh12"}')).toEqual({ t: 'kick', sessionId: 'abcdefgh12' });
    expect(parseCommand('{"t":"kick"}')).toBeNull();
    expect(parseCommand('{"t":"nope"}')).toBeNull();
    expect(parseCommand('not json')).toBeNull();
    expect(parseCommand('null')).toBeNull();
  });

  it('mode and visible history', () => {
    const show: ShowConf = { id: 1, name: 'A', providerId: 1, online: true, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } };
    expect(roomMode(null, null)).toBe('offline');
    expect(roomMode({ ...show, paused: true }, 'private')).toBe('paused');
    expect(roomMode(show, 'exclusive')).toBe('exclusive');
    expect(roomMode(show, null)).toBe('free');
    const lines = [
      { id: '1', from: 'performer', nick: 'A', role: 'performer' as const, text: 'all', ts: 1 },
      { id: '2', from: 'performer', nick: 'A', role: 'performer' as const, text: 'to s1', ts: 2, to: 's1' },
      { id: '3', from: 's2', nick: 'B', role: 'member' as const, text: 'from s2', ts: 3, to: 'performer' },
    ];
    expect(visibleLines(lines, 's1').map((l) => l.id)).toEqual(['1', '2']);
    expect(visibleLines(lines, 's2').map((l) => l.id)).toEqual(['1', '3']);
    expect(visibleLines(lines, 'performer').length).toBe(3);
  });
});

describe('chat start rules', () => {
  const show = {
    id: 1, universal_id: 'u', contentprovider_id: 1, name: 'A', slug_name: 'a', online: 1, online_since: 1, paused: 0,
    open_free: 1, open_private: 1, open_exclusive: 1, open_voyeur: 1, price_per_minute: 30, price_factor_exclusive: 150, flag_free: 1, flag_exclusive: 1,
  } satisfies ChatShowRow;
  const user: User = { id: 1, name: 'm', email: 'm@x', coins: 100, is_verified: true, age_verified: true, newsletter: false, nicknames: { data: [{ id: 3, nickname: 'Nick' }], current_nickname: 3 }, performer_show: null };
  const check = (o: Partial<StartCheck>) => startRefusal({ type: 'private', show, user, agechecked: false, inUse: null, ...o })?.code ?? null;

  it('checks in the catalogue order', () => {
    expect(check({})).toBeNull();
    expect(check({ user: null })).toBe('unauthenticated');
    expect(check({ user: null, type: 'free' })).toBeNull();
    expect(check({ user: { ...user, is_verified: false } })).toBe('chat.not_verfified');
    expect(check({ user: { ...user, age_verified: false } })).toBe('chat.no_avs');
    expect(check({ user: { ...user, age_verified: false }, agechecked: true })).toBeNull();
    expect(check({ show: { ...show, online: 0 } })).toBe('chat.show_not_available');
    expect(check({ show: { ...show, paused: 1 } })).toBe('chat.show_paused');
    expect(check({ type: 'exclusive', show: { ...show, flag_exclusive: 0 } })).toBe('chat.show_not_available_exclusive');
    expect(check({ inUse: 'private' })).toBe('chat.show_not_available_private');
    expect(check({ inUse: 'exclusive', type: 'voyeur' })).toBe('chat.show_not_available_exclusive_in_use');
    expect(check({ inUse: 'private', type: 'voyeur' })).toBeNull();
    expect(check({ type: 'exclusive', user: { ...user, coins: 44 } })).toBe('chat.no_coins');
    expect(check({ type: 'exclusive', user: { ...user, coins: 45 } })).toBeNull();
  });

  it('private becomes exclusive on exclusive-only shows; nicknames', () => {
    expect(effectiveType('private', { flag_exclusive: 2 })).toBe('exclusive');
    expect(effectiveType('private', { flag_exclusive: 1 })).toBe('private');
    expect(chatNick(null, undefined)).toEqual({ nick: 'guest' });
    expect(chatNick(null, 'Tom_1')).toEqual({ nick: 'Tom_1' });
    expect(chatNick(user, undefined)).toEqual({ nick: 'Nick' });
    expect(chatNick(user, 'nick')).toEqual({ nick: 'Nick' });
    expect(chatNick(user, 'other')).toMatchObject({ code: 'chat.nickname_not_yours' });
  });
});
