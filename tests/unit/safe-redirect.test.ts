import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/shared/safe-redirect';

const OWN = 'https://www.livecam.test';

describe('safeRedirect', () => {
  it('keeps own paths with query and hash, and own absolute URLs as their path', () => {
    expect(safeRedirect('/shows/all-shows', OWN)).toBe('/shows/all-shows');
    expect(safeRedirect('/search?q=a%20b#top', OWN)).toBe('/search?q=a%20b#top');
    expect(safeRedirect(`${OWN}/users/profile?tab=coins`, OWN)).toBe('/users/profile?tab=coins');
    expect(safeRedirect('/users/profile/coupons', `${OWN}/login?redirect=x`)).toBe('/users/profile/coupons');
  });

  it.each([
    ['/\t/evil.example'],
    ['/%09/evil.example'],
    ['//evil.example'],
    ['https://evil.example'],
    ['/a%0ab'],
    ['/a\nb'],
    ['/a\r\nSet-Cookie: x=1'],
    ['/a\u0000b'],
    ['/a%00b'],
    ['/a%7Fb'],
    ['/a\u2028b'],
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['data:text/html,hi'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/.//evil.example'],
    ['/a/../..//evil.example'],
    ['http://www.livecam.test/'],
    ['https://www.livecam.test.evil.example/'],
    ['https://user@evil.example/'],
    [''],
    [`/${'a'.repeat(1000)}`],
  ])('refuses %j (falls back)', (value) => {
    expect(safeRedirect(value, OWN)).toBe('/');
    expect(safeRedirect(value, OWN, '/home')).toBe('/home');
  });

  it('refuses what is not a string', () => {
    for (const value of [null, undefined, 42, {}, ['/x']]) expect(safeRedirect(value, OWN)).toBe('/');
  });
});
