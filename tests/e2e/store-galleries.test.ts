import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GallerySummary, Paged } from '../../src/shared/shows';
import { call, GERMAN_PHONE, lobbyConnected, open, type Browser } from './browser';
import { topBarCoins } from './billing-helpers';
import { grantCoins, launchIn, MESSAGES, newMember, uniq, type Lang } from './members';

// The gallery store (issue 13) in Chromium: the grid is locked for someone who has not bought
// it; a member buys it (the balance falls in a second tab too), opens the viewer, steps with the
// arrow key (the next picture was loaded ahead), closes with Escape, rates it and finds it in the
// archive.

const COINS = 2_000;

async function pricedGallery(page: Page): Promise<GallerySummary> {
  const res = await call<Paged<GallerySummary>>(page, 'GET', 'search/galleries?limit=48&sort=price_asc');
  const gallery = res.body.data.find((g) => g.price > 0 && g.price < COINS && g.picture_count >= 3);
  if (!gallery) throw new Error('no priced gallery in the store');
  return gallery;
}

// In German on a phone (the video store: English on a desktop).
const SETUPS: [Lang, typeof GERMAN_PHONE | undefined][] = [['de', GERMAN_PHONE]];

describe.each(SETUPS)('the gallery store (%s)', (lang, setup) => {
  const m = MESSAGES[lang];
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn(lang, setup ? { viewport: setup.viewport, locale: setup.locale, acceptLanguage: setup.acceptLanguage } : {});
  });
  afterAll(() => b?.close());

  it('a member buys a gallery (balance falls in both tabs), views it full screen with the keys, rates it and finds it in the archive', async () => {
    const page = b.page;
    const member = await newMember(page);
    await grantCoins(member.id, COINS, `store-e2e-${uniq()}`);
    const gallery = await pricedGallery(page);

    await open(page, `/galleries/pictures/${gallery.showId}/${gallery.id}`);
    expect(await page.locator('h1[data-testid=item-title]').textContent()).toBe(gallery.title);
    // Locked: thumbnails only, no viewer, no full-size address in the page.
    await page.locator('[data-testid=picture-grid].locked').waitFor();
    expect(await page.locator('button[data-testid=picture-thumb]').count()).toBe(0);
    expect(await page.content()).not.toContain(`/media/galleries/${gallery.id}/1/full`);

    const other = await b.newPage();
    await open(other, '/faq');
    await lobbyConnected(other);
    expect(await topBarCoins(other)).toBe(COINS);

    await page.getByRole('button', { name: m.store.buy.coins[gallery.price === 1 ? 'gallery_one' : 'gallery_other'].replace('{{count}}', String(gallery.price)) }).click();
    await page.locator('[data-testid=store-gallery][data-owned="1"]').waitFor();
    expect(await topBarCoins(page)).toBe(COINS - gallery.price);
    await other.waitForFunction((coins) => document.querySelector('.app-bar [data-testid=coins]')?.textContent?.trim() === String(coins), COINS - gallery.price);
    await other.close();

    // The viewer: opens on the first picture with the next one already requested.
    const full = (idx: number) => `/media/galleries/${gallery.id}/${idx}/full`;
    const requested: string[] = [];
    page.on('requestfinished', (r) => requested.push(new URL(r.url()).pathname));
    await page.locator('button[data-testid=picture-thumb]').first().click();
    const viewer = page.locator('[data-testid=picture-viewer]');
    await viewer.waitFor();
    expect(await viewer.getAttribute('data-index')).toBe('1');
    await page.waitForFunction((src) => (document.querySelector('[data-testid=viewer-image]') as HTMLImageElement | null)?.complete && document.querySelector('[data-testid=viewer-image]')?.getAttribute('src') === src, full(1));
    await expect.poll(() => requested.includes(full(2))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=picture-viewer]') !== null)).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.locator('[data-testid=picture-viewer][data-index="2"]').waitFor();
    expect(await page.locator('[data-testid=viewer-image]').getAttribute('src')).toBe(full(2));
    const status = await page.evaluate(async (url) => (await fetch(url)).status, full(2));
    expect(status).toBe(200);
    // Focus stays inside: Tab from the last control comes back to the first.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=picture-viewer]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('picture-thumb');

    await page.locator('[data-testid=rating-control] label').nth(4).click();
    await page.locator('[data-testid=rating-control][data-mine="5"]').waitFor();

    // The member menu leads to the archive.
    await page.click('[data-testid=member-toggle]');
    await Promise.all([page.waitForURL((u) => u.pathname === '/users/archive'), page.click('[data-testid=menu-archive]')]);
    await page.waitForLoadState();
    expect(await page.locator('[data-testid=archive-gallery-count]').textContent()).toBe(m.store.archive.galleries_one.replace('{{count}}', '1'));
    await open(page, '/users/archive/galleries');
    await page.locator(`[data-gallery-id="${gallery.id}"][data-owned="1"]`).waitFor();
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});

describe('gallery prizes and visitors', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('en');
  });
  afterAll(() => b?.close());

  it('a visitor sees the locked grid, gets 403 for a full picture and the archive sends them to the login', async () => {
    const page = b.page;
    await open(page, '/faq');
    const gallery = await pricedGallery(page);
    await open(page, `/galleries/pictures/${gallery.showId}/${gallery.id}`);
    await page.locator('[data-testid=picture-grid].locked').waitFor();
    expect(await page.locator('[data-testid=buy-login]').getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent(`/galleries/pictures/${gallery.showId}/${gallery.id}`)}`);
    const status = await page.evaluate(async (url) => (await fetch(url)).status, `/media/galleries/${gallery.id}/1/full`);
    expect(status).toBe(403);
    await page.goto(new URL('/users/archive', b.base).href);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
