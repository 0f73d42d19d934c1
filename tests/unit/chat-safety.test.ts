import { describe, expect, it } from 'vitest';
import { blockedWordIn, cleanWordList, parseModCommand } from '../../src/shared/chat-safety';

// The word list's matching rule and the moderation frame's parser (src/shared/chat-safety.ts).

describe('chat safety rules', () => {
  it('holds back whole words and phrases in any case or width, not parts of longer words', () => {
    const words = ['grumble', 'bad word', 'über'];
    expect(blockedWordIn('GRUMBLE!', words)).toBe('grumble');
    expect(blockedWordIn('a ＧＲＵＭＢＬＥ here', words)).toBe('grumble');
    expect(blockedWordIn('so BAD WORD.', words)).toBe('bad word');
    expect(blockedWordIn('ÜBER alles', words)).toBe('über');
    expect(blockedWordIn('grumbled, badwords, Zuber', words)).toBeNull();
    expect(blockedWordIn('grumbled then grumble', words)).toBe('grumble');
    expect(blockedWordIn('nothing', [])).toBeNull();
  });

  it('cleans a word list and names what is wrong', () => {
    expect(cleanWordList([' A  B ', 'a b', '', 'C'])).toEqual({ words: ['a b', 'c'] });
    expect(cleanWordList('a')).toEqual({ error: 'array_required' });
    expect(cleanWordList([1])).toEqual({ error: 'string_required' });
    expect(cleanWordList(['x'.repeat(41)])).toEqual({ error: 'too_long' });
  });

  it('parses moderation frames with field errors', () => {
    expect(parseModCommand({ t: 'mod', act: 'mute', sessionId: 'abcdefgh', minutes: 15 })).toEqual({ t: 'mod', act: 'mute', sessionId: 'abcdefgh', minutes: 15 });
    expect(parseModCommand({ t: 'mod', act: 'kick', sessionId: 'abcdefgh' })).toEqual({ t: 'mod', act: 'kick', sessionId: 'abcdefgh' });
    expect(parseModCommand({ t: 'mod', act: 'mute', sessionId: 'abcdefgh', minutes: '5' })).toEqual({ t: 'mod', invalid: { minutes: 'one_of' } });
    expect(parseModCommand({ t: 'mod', act: 'ban', sessionId: 1 })).toEqual({ t: 'mod', invalid: { act: 'one_of', sessionId: 'invalid' } });
  });
});
