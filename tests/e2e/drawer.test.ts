import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { launch, open, type Browser } from './browser';

// Visitor rules: no buy-coins (members only), no pay-by-phone (no phone payment set up),
// no special (it ended 2024-07-16).
const VISITOR_ITEMS = ['home', 'allShows', 'categories', 'search', 'freeshow', 'freevideo', 'game', 'contest', 'freeCoins', 'faq', 'contact'];

describe('drawer for visitors', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 800, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('lists exactly the visitor items with their links and labels', async () => {
    await open(b.page, '/');
    const keys = await b.page.$$eval('nav#app-drawer [data-drawer-item]', (els) => els.map((el) => el.getAttribute('data-drawer-item')));
    expect(keys).toEqual(VISITOR_ITEMS);
    for (const hidden of ['charge', 'voicecall', 'special']) {
      expect(await b.page.locator(`[data-drawer-item=${hidden}]`).count()).toBe(0);
    }
    expect(await b.page.getAttribute('[data-drawer-item=freeCoins]', 'href')).toBe('/users/free_coins');
    expect(await b.page.getAttribute('[data-drawer-item=contact]', 'href')).toBe('/contact');
    expect((await b.page.textContent('[data-drawer-item=faq]'))?.trim()).toBe(en.drawer.faq);
    // The current page is marked.
    expect(await b.page.getAttribute('[data-drawer-item=home]', 'aria-current')).toBe('page');
  });

  it('opens and closes with the toggle and Escape below 1264 px', async () => {
    await open(b.page, '/');
    const drawer = b.page.locator('nav#app-drawer');
    const toggle = b.page.locator('.drawer-toggle');
    expect(await toggle.isVisible()).toBe(true);
    expect(await drawer.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.getAttribute('aria-controls')).toBe('app-drawer');

    await toggle.click();
    await drawer.waitFor({ state: 'visible' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await b.page.locator('[data-drawer-item=contact]').isVisible()).toBe(true);

    await b.page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // The open panel covers the toggle; a click on the scrim beside it closes it.
    await toggle.click();
    await drawer.waitFor({ state: 'visible' });
    await b.page.mouse.click(780, 450);
    await drawer.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // An item of the open drawer navigates.
    await toggle.click();
    await b.page.click('[data-drawer-item=faq]');
    await b.page.waitForURL(/\/faq$/);
    await b.page.locator('article.info-page[data-info=faq]').waitFor();
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('is a visible sidebar without toggling at 1280 px', async () => {
    await b.page.setViewportSize({ width: 1280, height: 900 });
    try {
      await open(b.page, '/');
      expect(await b.page.locator('nav#app-drawer').isVisible()).toBe(true);
      expect(await b.page.locator('[data-drawer-item=home]').isVisible()).toBe(true);
      expect(await b.page.locator('.drawer-toggle').isVisible()).toBe(false);
    } finally {
      await b.page.setViewportSize({ width: 800, height: 900 });
    }
  });
});
