import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { launch, open, type Browser } from './browser';

// In English; german.test.ts shows the 404 page in German.
describe.each(['en'] as const)('404 page (%s)', (locale) => {
  const messages = { en }[locale];
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true, lang: locale } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it.each(['/this/page/does-not-exist', '/404'])('%s answers 404 with the localized page', async (path) => {
    const res = await open(b.page, path);
    expect(res?.status()).toBe(404);
    expect(await b.page.getAttribute('html', 'lang')).toBe(locale);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(messages.errorPage.notFound.title);
    expect(await b.page.getAttribute('meta[name=robots]', 'content')).toBe('noindex');
    const support = b.page.locator('[data-testid=support-link]');
    expect(await support.isVisible()).toBe(true);
    expect(await support.getAttribute('href')).toBe('/contact#contact');
    expect((await support.textContent())?.trim()).toBe(messages.errorPage.support);
    // The shell is there too.
    expect(await b.page.locator('.app-bar').count()).toBe(1);
    expect(b.unexpectedProblems(b.page, { ignoreDocument404: true })).toEqual([]);
  });

  it('the home button goes home', async () => {
    await open(b.page, '/no-such-thing');
    const home = b.page.locator('.error-page a.btn-primary');
    expect((await home.textContent())?.trim()).toBe(messages.errorPage.home);
    await home.click();
    await b.page.waitForURL(`${b.base}/`);
    await b.page.locator('.show-grid .show-tile').first().waitFor();
    expect((await b.page.textContent('main h1'))?.trim()).toBe(messages.home.title);
  });

  it('the support link leads to the contact section', async () => {
    await open(b.page, '/no-such-thing');
    await b.page.click('[data-testid=support-link]');
    await b.page.waitForURL(/\/contact#contact$/);
    expect(await b.page.locator('article.info-page[data-info=contact] section#contact').isVisible()).toBe(true);
  });
});
