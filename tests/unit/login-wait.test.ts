// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { loginErrorCode, loginErrorText } from '../../src/client/features/account/login-form';
import { ApiFailure, createApi } from '../../src/client/lib/api';
import { createTranslator, type Resources } from '../../src/shared/translate';
import { testStore } from './client-state';

// Issue 24 point 12: a throttled login says how long to wait (the 429's Retry-After), in English and German.

afterEach(() => vi.unstubAllGlobals());

async function refusedLogin(retryAfter: string | null): Promise<ApiFailure> {
  document.cookie = 'XSRF-TOKEN=tok123456789abcdef; Path=/';
  vi.stubGlobal('fetch', async () =>
    new Response(JSON.stringify({ message: 'too_many_attempts' }), { status: 429, headers: { 'Content-Type': 'application/json', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) } }),
  );
  const err = await createApi(testStore(), () => undefined)
    .post('auth/login', { username: 'demo', password: 'x' })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiFailure);
  return err as ApiFailure;
}

describe('a throttled login tells how long to wait', () => {
  const tEn = createTranslator(en as Resources, 'en');
  const tDe = createTranslator(de as Resources, 'de');

  it('reads Retry-After off the 429 and says the minutes in en and de', async () => {
    const err = await refusedLogin('840');
    expect(err.retryAfter).toBe(840);
    expect(loginErrorText(tEn, loginErrorCode(err), err.retryAfter)).toBe('Too many attempts. Please try again in 14 minutes.');
    expect(loginErrorText(tDe, loginErrorCode(err), err.retryAfter)).toBe('Zu viele Versuche. Bitte versuchen Sie es in 14 Minuten erneut.');
  });

  it('under a minute rounds up to one minute; without the header it asks to wait a moment', async () => {
    const soon = await refusedLogin('30');
    expect(loginErrorText(tEn, loginErrorCode(soon), soon.retryAfter)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(loginErrorText(tDe, loginErrorCode(soon), soon.retryAfter)).toBe('Zu viele Versuche. Bitte versuchen Sie es in 1 Minute erneut.');
    const unsaid = await refusedLogin(null);
    expect(unsaid.retryAfter).toBeNull();
    expect(loginErrorText(tEn, loginErrorCode(unsaid), unsaid.retryAfter)).toBe(en.errors.too_many_attempts);
  });
});
