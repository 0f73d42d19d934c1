import { describe, expect, it } from 'vitest';
import { CHAT_RATE_BURST, CHAT_TEXT_MAX, CHAT_TYPING_EVERY_MS, ROOM_FLOOD_CLOSE, ROOM_FLOOD_WINDOW_MS, ROOM_FRAME_LIMITS } from '../../src/shared/chat';
import { VIDEO_SDP_MAX } from '../../src/shared/video';
import { cleanLine, controlCharacterAt, MARKS_PER_BASE_MAX } from '../../src/server/lib/body';
import { roomMode } from '../../src/shared/room-mode';
import { cleanText, COMMAND_MAX_BYTES, dueMinute, FrameLimiter, frameKind, minuteStart, parseCommand, takeToken, visibleLines, type ShowConf } from '../../src/server/features/chat/room/logic';
import { CHROMIUM_ANSWER, CHROMIUM_OFFER } from './chromium-sdp';
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

  it('text: bidi overrides and isolates and zero-width characters go, stacked combining marks are capped (the rule the body guard refuses by)', () => {
    // "txt.exe" written backwards behind an override, an isolate around a name, marks of direction.
    expect(cleanText('file\u202Eexe.txt')).toBe('fileexe.txt');
    expect(cleanText('\u2067Anna\u2069 says \u200Fhi\u200E \u061C!')).toBe('Anna says hi !');
    expect(cleanText('\u202Ahello\u202C \u202Bx\u202D\u2066y')).toBe('hello xy');
    // Zero-width space, non-joiner, word joiner, byte order mark, invisible operators hide inside words.
    expect(cleanText('fr\u200Bee\u200C m\u2060on\uFEFFey\u2062\u180E')).toBe('free money');
    // The joiner stays where it builds one emoji (family, skin tone, flag with its selector), nowhere else.
    expect(cleanText('\u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u{1F469}\u{1F3FD}\u200D\u{1F4BB} \u{1F3F3}\uFE0F\u200D\u{1F308}')).toBe(
      '\u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u{1F469}\u{1F3FD}\u200D\u{1F4BB} \u{1F3F3}\uFE0F\u200D\u{1F308}',
    );
    expect(cleanText('a\u200Db \u{1F600}\u200D \u200D\u{1F600}')).toBe('ab \u{1F600} \u{1F600}');
    // 256 marks on one letter (a line 256 marks high): capped; real text keeps its marks.
    const zalgo = cleanText(`e${'\u0301'.repeat(256)}x`)!;
    expect(zalgo).toBe(`e${'\u0301'.repeat(MARKS_PER_BASE_MAX)}x`);
    expect(cleanText(`${'a\u0300\u0301\u0302\u0303\u0304\u0305'.repeat(40)}`)).toBe('a\u0300\u0301\u0302\u0303'.repeat(40));
    for (const real of ['Tiếng Việt', 'नमस्ते दुनिया', 'ภาษาไทย', 'Grüße', 'e\u0301te\u0301', '1\uFE0F\u20E3']) expect(cleanText(real)).toBe(real);
    // Only bidi characters: nothing left.
    expect(cleanText('\u202E\u200B\u2066')).toBeNull();
    // One rule: what the body guard refuses in a field, a chat line loses.
    for (const bad of ['\u202E', '\u2066', '\u200F', '\u061C', '\u0000', '\u0085']) {
      expect(controlCharacterAt({ name: `a${bad}b` })).toBe('name');
      expect(cleanLine(`a${bad}b`)).not.toContain(bad);
    }
  });

  it('frame limits: a bucket per sender and kind; refused frames are told once per window, and a flood that goes on closes', () => {
    const l = new FrameLimiter();
    // Typing: what an indicator needs; the surplus is dropped without a word.
    for (let i = 0; i < ROOM_FRAME_LIMITS.typing.burst; i++) expect(l.take('a', 'typing', 0)).toBe('pass');
    expect(l.take('a', 'typing', 0)).toBe('drop');
    expect(l.take('a', 'typing', CHAT_TYPING_EVERY_MS - 1)).toBe('drop');
    expect(l.take('a', 'typing', CHAT_TYPING_EVERY_MS)).toBe('pass');
    // Lines have their own bucket: the typing flood did not take them; told once, then dropped.
    for (let i = 0; i < CHAT_RATE_BURST; i++) expect(l.take('a', 'say', 10)).toBe('pass');
    expect(l.take('a', 'say', 10)).toBe('tell');
    expect(l.take('a', 'say', 10)).toBe('drop');
    expect(l.take('a', 'signal', 10)).toBe('pass');
    // Another sender is not touched by a's flood.
    expect(l.take('b', 'say', 10)).toBe('pass');
    // The flood goes on: past ROOM_FLOOD_CLOSE refused frames in the window the socket closes.
    let verdict = '';
    // Refused so far in this window: two typing notices and two lines.
    let refused = 4;
    while (verdict !== 'close' && refused < 1_000) {
      verdict = l.take('a', 'say', 20);
      refused++;
    }
    expect(verdict).toBe('close');
    expect(refused).toBe(ROOM_FLOOD_CLOSE + 1);
    // A new window: a frame over the limit is told again.
    const later = ROOM_FLOOD_WINDOW_MS + 20;
    for (let i = 0; i < ROOM_FRAME_LIMITS.command.burst; i++) expect(l.take('a', 'command', later)).toBe('pass');
    expect(l.take('a', 'command', later)).toBe('tell');
  });

  it("frame limits: the performer's signals have a bucket per viewer; a viewer's signals one in all", () => {
    const l = new FrameLimiter();
    const { burst } = ROOM_FRAME_LIMITS.signal;
    for (const viewer of ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8']) {
      for (let i = 0; i < burst; i++) expect(l.take('performer', 'signal', 0, viewer)).toBe('pass');
    }
    expect(l.take('performer', 'signal', 0, 'v1')).toBe('tell');
    for (let i = 0; i < burst; i++) expect(l.take('v1', 'signal', 0)).toBe('pass');
    expect(l.take('v1', 'signal', 0)).toBe('tell');
    expect(l.take('v1', 'signal', 1000 / ROOM_FRAME_LIMITS.signal.perSecond)).toBe('pass');
    expect(frameKind(parseCommand('{"t":"signal","to":"performer","data":{"kind":"want"}}'))).toBe('signal');
    expect(frameKind(parseCommand('{"t":"typing"}'))).toBe('typing');
    expect(frameKind(parseCommand('{"t":"say","text":"x"}'))).toBe('say');
    expect(frameKind(parseCommand('{"t":"video","live":true}'))).toBe('command');
    expect(frameKind(parseCommand('{"t":"kick","sessionId":"abcdefgh12"}'))).toBe('command');
    expect(frameKind(parseCommand('nonsense'))).toBe('bad');
  });

  it("signals: a real Chromium offer and answer fit the size cap, with room for more candidates; a padded one does not", () => {
    for (const sdp of [CHROMIUM_OFFER, CHROMIUM_ANSWER]) {
      const frame = JSON.stringify({ t: 'signal', to: 'abcdefgh12345678', data: { kind: 'offer', sdp } });
      expect(parseCommand(frame)).toEqual({ t: 'signal', to: 'abcdefgh12345678', data: { kind: 'offer', sdp } });
      // Twice the candidates of the test machine's eight per section would still pass.
      expect(sdp.length * 2).toBeLessThan(VIDEO_SDP_MAX);
    }
    const padded = CHROMIUM_OFFER + 'a=x-pad:'.padEnd(VIDEO_SDP_MAX - CHROMIUM_OFFER.length + 1, 'x');
    expect(parseCommand(JSON.stringify({ t: 'signal', to: 'performer', data: { kind: 'offer', sdp: padded } }))).toBeNull();
    // The 20 KB offers of the probe are refused before any JSON is parsed.
    expect(JSON.stringify({ t: 'signal', to: 'performer', data: { kind: 'offer', sdp: 'x'.repeat(20_000) } }).length).toBeGreaterThan(COMMAND_MAX_BYTES);
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
