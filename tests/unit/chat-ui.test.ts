import { describe, expect, it } from 'vitest';
import { alertKey, ratingPercent } from '../../src/client/features/chat/chat-dialogs';
import { chatErrorCode } from '../../src/client/features/chat/chat-state';
import { ApiFailure } from '../../src/client/lib/api';
import en from '../../locales/en.json';

describe('chat: ratings and the error catalogue (browser side)', () => {
  it('converts the 5 or 10 step scale to percent', () => {
    expect(ratingPercent(8, 10)).toBe(80);
    expect(ratingPercent(3, 5)).toBe(60);
    expect(ratingPercent(5, 5)).toBe(100);
    expect(ratingPercent(0, 10)).toBe(0);
    expect(ratingPercent(12, 10)).toBe(100);
  });

  it('takes the first code of errors.type, else of the first field, else the unexpected-session code', () => {
    expect(chatErrorCode(new ApiFailure(422, 'x', { type: ['chat.no_coins'], other: ['y'] }))).toBe('chat.no_coins');
    expect(chatErrorCode(new ApiFailure(422, 'x', { nickname: ['chat.no_nickname'] }))).toBe('chat.no_nickname');
    expect(chatErrorCode(new ApiFailure(500, 'server_error'))).toBe('SESSION_ERR_UNEXPECTED');
    expect(chatErrorCode(new Error('boom'))).toBe('SESSION_ERR_UNEXPECTED');
  });

  it('maps every catalogue code to a text that exists in the locales', () => {
    const alert = en.chat.alert as Record<string, { title: string; text: string }>;
    const cases: [string, string][] = [
      ['chat.show_paused', 'show_paused'],
      ['chat.show_not_available', 'show_not_available'],
      ['chat.show_not_available_private', 'show_not_available_private'],
      ['chat.show_not_available_exclusive_in_use', 'show_not_available_private'],
      ['chat.show_not_available_free', 'show_not_available_free'],
      ['chat.show_not_available_exclusive', 'show_not_available_exclusive'],
      ['chat.free_expired', 'free_expired'],
      ['chat.no_coins', 'no_coins'],
      ['chat.no_avs', 'no_avs'],
      ['chat.invalid_session_type', 'unknown'],
      ['chat.something_new', 'other'],
    ];
    for (const [code, key] of cases) {
      expect(alertKey(code), code).toBe(key);
      expect(alert[key]?.title, key).toBeTruthy();
    }
  });
});
