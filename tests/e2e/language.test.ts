import { afterEach, describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { daysUntil, launch, open, type Browser } from './browser';

const allShowsChip = '.category-bar a[href="/shows/all-shows"]';

async function expectLanguage(b: Browser, locale: 'en' | 'de') {
  const messages = locale === 'de' ? de : en;
  expect(await b.page.getAttribute('html', 'lang')).toBe(locale);
  expect((await b.page.textContent(allShowsChip))?.trim()).toBe(messages.nav.allShows);
  expect((await b.page.textContent('main h1'))?.trim()).toBe(messages.home.title);
  // The hydrated islands speak the same language (the drawer is rendered on the client too).
  expect((await b.page.textContent('[data-drawer-item=contact]'))?.trim()).toBe(messages.drawer.contact);
  expect(await b.page.getAttribute('.drawer-toggle', 'aria-label')).toBe(messages.nav.menu);
}

describe('language', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('follows the i18n_redirected cookie', async () => {
    b = await launch({ cookies: { splash: true, consent: true, lang: 'de' } });
    await open(b.page, '/');
    await expectLanguage(b, 'de');
    expect(await b.page.getByText('Alle Shows', { exact: true }).first().isVisible()).toBe(true);
    // An English browser does not override the remembered choice.
    await open(b.page, '/shows/all-shows');
    expect(await b.page.getAttribute('html', 'lang')).toBe('de');
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('follows Accept-Language and remembers it', async () => {
    b = await launch({ locale: 'de-DE', acceptLanguage: 'de-DE,de;q=0.9', cookies: { splash: true, consent: true } });
    await open(b.page, '/');
    await expectLanguage(b, 'de');
    expect((await b.cookie('i18n_redirected'))?.value).toBe('de');
  });

  it('?lang=de switches, sets the cookie for a year and sticks on later visits', async () => {
    b = await launch({ cookies: { splash: true, consent: true } });
    await open(b.page, '/');
    await expectLanguage(b, 'en');

    await open(b.page, '/?lang=de');
    await expectLanguage(b, 'de');
    expect(await b.page.getByText('Alle Shows', { exact: true }).first().isVisible()).toBe(true);
    const cookie = await b.cookie('i18n_redirected');
    expect(cookie?.value).toBe('de');
    expect(daysUntil(cookie)).toBeGreaterThan(364);
    expect(daysUntil(cookie)).toBeLessThan(366);

    await open(b.page, '/faq');
    expect(await b.page.getAttribute('html', 'lang')).toBe('de');
    expect((await b.page.textContent('article.info-page h1'))?.trim()).toBe(de.info.faq.title);

    // The footer switch goes back.
    await b.page.click('.footer-switches a[hreflang=en]');
    await b.page.waitForURL(/\?lang=en$/);
    expect(await b.page.getAttribute('html', 'lang')).toBe('en');
    expect((await b.cookie('i18n_redirected'))?.value).toBe('en');
  });

  it('falls back to English for an unsupported Accept-Language', async () => {
    b = await launch({ locale: 'fr-FR', acceptLanguage: 'fr-FR,fr;q=0.9', cookies: { splash: true, consent: true } });
    await open(b.page, '/');
    await expectLanguage(b, 'en');
  });

  it('ignores an unknown ?lang value', async () => {
    b = await launch({ cookies: { splash: true, consent: true } });
    await open(b.page, '/?lang=xx');
    await expectLanguage(b, 'en');
    expect((await b.cookie('i18n_redirected'))?.value).toBe('en');

    await b.context.addCookies([{ name: 'i18n_redirected', value: 'de', url: b.base }]);
    await open(b.page, '/?lang=xx');
    await expectLanguage(b, 'de');
    expect((await b.cookie('i18n_redirected'))?.value).toBe('de');
  });
});
