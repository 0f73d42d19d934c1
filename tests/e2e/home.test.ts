import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { launch, open, type Browser } from './browser';

const tiles = '.show-grid .show-tile';

describe('home on desktop', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('shows 36 tiles, the category bar and pagination with a canonical link', async () => {
    await open(b.page, '/');
    expect((await b.page.textContent('main h1'))?.trim()).toBe(en.home.title);
    expect(await b.page.locator(tiles).count()).toBe(36);
    expect(await b.page.locator('.category-bar').isVisible()).toBe(true);
    expect(await b.page.locator('.pagination').isVisible()).toBe(true);
    expect(await b.page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/`);
    expect(await b.page.getAttribute('.pagination a[aria-current=page]', 'href')).toBe('/');
    // No bottom navigation on wide screens.
    expect(await b.page.locator('.bottom-nav').isVisible()).toBe(false);
  });

  it('the page 2 link loads page 2 and keeps ?page=2', async () => {
    await open(b.page, '/');
    const firstIds = await b.page.$$eval(tiles, (els) => els.map((el) => el.getAttribute('data-show-id')));
    await b.page.click('.pagination a[href="/?page=2"]');
    await b.page.waitForURL(`${b.base}/?page=2`);
    expect(new URL(b.page.url()).searchParams.get('page')).toBe('2');
    expect(await b.page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/?page=2`);
    expect((await b.page.textContent('.pagination a[aria-current=page]'))?.trim()).toBe('2');
    expect(await b.page.getAttribute('.pagination a[rel=prev]', 'href')).toBe('/');
    const secondIds = await b.page.$$eval(tiles, (els) => els.map((el) => el.getAttribute('data-show-id')));
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('has the category bar on all shows and on a category page', async () => {
    await open(b.page, '/shows/all-shows');
    expect(await b.page.locator('.category-bar').isVisible()).toBe(true);
    expect(await b.page.getAttribute('.category-bar a.active', 'href')).toBe('/shows/all-shows');
    expect(await b.page.locator(tiles).count()).toBe(36);

    const href = await b.page.getAttribute('.category-bar a[data-category]', 'href');
    expect(href).toMatch(/^\/shows\/\d+\/[^/]+\/[^/]+$/);
    await b.page.click(`.category-bar a[href="${href}"]`);
    await b.page.waitForURL(`${b.base}${href}`);
    expect(await b.page.locator('.category-bar').isVisible()).toBe(true);
    expect(await b.page.getAttribute('.category-bar a.active', 'href')).toBe(href);
    expect(await b.page.locator(tiles).count()).toBeGreaterThan(0);
  });
});

describe('home on a phone', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('390x844 shows the bottom navigation and hides the drawer', async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 390, height: 844 } });
    await open(b.page, '/');
    expect(await b.page.locator('.bottom-nav').isVisible()).toBe(true);
    expect(await b.page.locator('nav#app-drawer').isVisible()).toBe(false);
    expect(await b.page.locator('.drawer-toggle').isVisible()).toBe(true);
    expect(await b.page.locator(tiles).count()).toBe(36);
    expect(await b.page.getAttribute('.bottom-nav a[aria-current=page]', 'href')).toBe('/');
    // Nothing makes the page scroll sideways.
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('German on a phone', async () => {
    b = await launch({
      locale: 'de-DE',
      acceptLanguage: 'de-DE,de;q=0.9',
      cookies: { splash: true, consent: true },
      viewport: { width: 390, height: 844 },
    });
    await open(b.page, '/');
    expect(await b.page.getAttribute('html', 'lang')).toBe('de');
    expect((await b.page.textContent('main h1'))?.trim()).toBe(de.home.title);
    expect(await b.page.locator(tiles).count()).toBe(36);
    expect(await b.page.locator('.pagination').isVisible()).toBe(true);
    const bottom = (await b.page.$$eval('.bottom-nav a span', (els) => els.map((el) => el.textContent?.trim())));
    expect(bottom).toEqual([de.nav.home, de.nav.allShows, de.nav.search, de.nav.login]);
    expect(await b.page.locator('.bottom-nav').isVisible()).toBe(true);

    // The drawer opens over the page, in German, and over the welcome offer a visitor is shown.
    await b.page.locator('[data-testid=incentive-chip], [data-testid=incentive-panel]').first().waitFor();
    await b.page.click('.drawer-toggle');
    await b.page.locator('nav#app-drawer').waitFor({ state: 'visible' });
    expect((await b.page.textContent('[data-drawer-item=freeCoins]'))?.trim()).toBe(de.drawer.freeCoins);
    const offerOnTop = await b.page.evaluate(() => {
      // What is painted at a point inside the offer near its right end (beside the drawer): the
      // open drawer makes the offer inert, and hit testing skips inert parts, so lift that a moment.
      const offer = document.querySelector('.incentive-chip, .incentive-panel')!;
      const box = offer.getBoundingClientRect();
      const inert = [...document.querySelectorAll<HTMLElement>('[inert]')].filter((el) => el.contains(offer));
      inert.forEach((el) => (el.inert = false));
      const hit = document.elementFromPoint(box.right - 20, box.top + box.height / 2);
      inert.forEach((el) => (el.inert = true));
      return Boolean(hit?.closest('.incentive-chip, .incentive-panel'));
    });
    expect(offerOnTop).toBe(false);
    await b.page.keyboard.press('Escape');
    await b.page.locator('nav#app-drawer').waitFor({ state: 'hidden' });

    await b.page.click('.bottom-nav a[href="/shows/all-shows"]');
    await b.page.waitForURL(`${b.base}/shows/all-shows`);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(de.nav.allShows);
    expect(await b.page.getAttribute('.bottom-nav a[aria-current=page]', 'href')).toBe('/shows/all-shows');
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
