import { describe, expect, it } from 'vitest';
import { localeFromAcceptLanguage, resolveLocale } from '../../src/shared/locale';
import { buildsDiffer, isSemver } from '../../src/shared/semver';
import { isLayout, LAYOUTS } from '../../src/shared/layouts';

describe('locale detection', () => {
  it('honours q-values and regions', () => {
    expect(localeFromAcceptLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(localeFromAcceptLanguage('fr-FR,fr;q=0.9,de;q=0.5,en;q=0.7')).toBe('en');
    expect(localeFromAcceptLanguage('fr, it')).toBeNull();
    expect(localeFromAcceptLanguage('')).toBeNull();
    expect(localeFromAcceptLanguage('de;q=0')).toBeNull();
    expect(localeFromAcceptLanguage('x'.repeat(50_000))).toBeNull();
  });

  it('prefers ?lang, then the cookie, then Accept-Language, default en', () => {
    expect(resolveLocale({ query: 'de', cookie: 'en', acceptLanguage: 'en' })).toBe('de');
    expect(resolveLocale({ query: 'xx', cookie: 'de', acceptLanguage: 'en' })).toBe('de');
    expect(resolveLocale({ cookie: 'zz', acceptLanguage: 'de-AT' })).toBe('de');
    expect(resolveLocale({})).toBe('en');
  });
});

describe('build ids', () => {
  it('accepts only semantic versions', () => {
    for (const ok of ['0.1.0', '1.2.3-beta.1', '2.0.0+build.7']) expect(isSemver(ok)).toBe(true);
    for (const bad of ['1.2', 'v1.2.3', '01.2.3', '', null, 'latest', '1.2.3 ']) expect(isSemver(bad)).toBe(false);
  });

  it('differs only when both are valid and unequal', () => {
    expect(buildsDiffer('1.0.0', '1.0.1')).toBe(true);
    expect(buildsDiffer('1.0.0', '1.0.0')).toBe(false);
    expect(buildsDiffer('1.0.0', '<html>')).toBe(false);
    expect(buildsDiffer(null, '1.0.0')).toBe(false);
  });
});

describe('layouts', () => {
  it('knows exactly the six colour layouts', () => {
    expect([...LAYOUTS]).toEqual(['redhot', 'greenhorn', 'black-white', 'blue-valvet', 'greyhound', 'pink-pussy']);
    expect(isLayout('greenhorn')).toBe(true);
    expect(isLayout('Greenhorn')).toBe(false);
    expect(isLayout('bogus')).toBe(false);
    expect(isLayout(undefined)).toBe(false);
  });
});
