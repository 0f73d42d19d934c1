import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { launch, open, type Browser } from './browser';

const INFO_KEYS = [
  'contact',
  'complaints',
  'faq',
  'terms',
  'privacy_policy',
  'refund',
  'usc2257',
  'camgirl_werden',
  'special',
  'xmas',
] as const;

// In English; german.test.ts renders every info route in German.
describe.each(['en'] as const)('info pages (%s)', (locale) => {
  const messages = { en }[locale];
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true, lang: locale } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('every info route renders its article with the title of the locale', async () => {
    for (const key of INFO_KEYS) {
      const res = await open(b.page, `/${key}`, { hydrate: false });
      expect(res?.status(), key).toBe(200);
      expect(await b.page.getAttribute('html', 'lang')).toBe(locale);
      const article = b.page.locator(`article.info-page[data-info=${key}]`);
      expect(await article.count(), key).toBe(1);
      expect((await article.locator('h1').textContent())?.trim(), key).toBe(messages.info[key].title);
      expect(await b.page.title(), key).toContain(messages.info[key].title);
      expect(await b.page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/${key}`);
    }
  });

  it('contact has the contact, imprint and abuse anchors; privacy has google_analytics', async () => {
    await open(b.page, '/contact');
    for (const id of ['contact', 'imprint', 'abuse']) {
      expect(await b.page.locator(`article.info-page section#${id}`).count(), id).toBe(1);
    }
    // The footer's imprint link lands on its section.
    await b.page.click('.footer a[href="/contact#imprint"]');
    await b.page.waitForURL(/\/contact#imprint$/);
    expect(await b.page.locator('section#imprint h2').isVisible()).toBe(true);

    await open(b.page, '/privacy_policy#google_analytics');
    const ga = b.page.locator('article.info-page section#google_analytics');
    expect(await ga.count()).toBe(1);
    expect(await ga.isVisible()).toBe(true);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
