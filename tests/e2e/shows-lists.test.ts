import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { GERMAN_PHONE, launch, open, type Browser } from './browser';

const tiles = '.show-grid .show-tile';
const ids = (b: Browser) => b.page.$$eval(tiles, (els) => els.map((el) => Number(el.getAttribute('data-show-id'))));

describe('show lists', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('home lists 36 shows, online first, with the promotions strip', async () => {
    await open(b.page, '/');
    expect(await b.page.locator(tiles).count()).toBe(36);
    const online = await b.page.$$eval(tiles, (els) => els.map((el) => el.classList.contains('online')));
    expect(online[0]).toBe(true);
    expect(online.indexOf(false) === -1 || online.slice(online.indexOf(false)).every((o) => !o)).toBe(true);
    expect(await b.page.locator('.promo-strip .promo-card').count()).toBeGreaterThan(0);
    expect((await b.page.textContent('.promo-strip-title'))?.trim()).toBe(en.shows.promos.title);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('page 2 works by URL with its canonical link and pagination', async () => {
    const first = (await open(b.page, '/'), await ids(b));
    await open(b.page, '/?page=2');
    expect(await b.page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/?page=2`);
    expect((await b.page.textContent('.pagination a[aria-current=page]'))?.trim()).toBe('2');
    const second = await ids(b);
    expect(second).toHaveLength(36);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    // No promotions past page 1.
    expect(await b.page.locator('.promo-strip').count()).toBe(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('the category bar opens a category list whose tiles link within it', async () => {
    await open(b.page, '/');
    const href = (await b.page.getAttribute('.category-bar a[data-category]', 'href'))!;
    await b.page.click(`.category-bar a[href="${href}"]`);
    await b.page.waitForURL(`${b.base}${href}`);
    expect(await b.page.locator(tiles).count()).toBeGreaterThan(0);
    expect(await b.page.getAttribute(`${tiles} a.tile-link`, 'href')).toMatch(new RegExp(`^${href}/chat/\\d+/[^/]+$`));
    expect((await b.page.$$eval('.breadcrumbs li', (els) => els.map((e) => e.textContent?.trim())))[0]).toBe(en.nav.home);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('infinite scroll appends page 2 at the end and updates the URL page', async () => {
    await open(b.page, '/shows/all-shows');
    const before = await ids(b);
    expect(before).toHaveLength(36);
    // A mark on the document: a reload or navigation would lose it (replaceState keeps it).
    await b.page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await b.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await b.page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 72, tiles, { timeout: 10_000 });
    const after = await ids(b);
    expect(after.slice(0, 36)).toEqual(before);
    expect(new Set(after).size).toBe(after.length);
    expect(new URL(b.page.url()).searchParams.get('page')).toBe('2');
    expect(await b.page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/shows/all-shows?page=2`);
    expect((await b.page.textContent('.show-list .sr-only[role=status]'))?.trim()).toMatch(/36/);
    expect(await b.page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('a pagination link replaces the list (Back restores it) and page 1 returns to the top', async () => {
    await open(b.page, '/shows/all-shows');
    const first = await ids(b);
    // el.click(): no scrolling to the pagination first, so the end of the list stays out of reach.
    const click = (sel: string) => b.page.$eval(sel, (el) => (el as HTMLElement).click());
    await click('.pagination a[href="/shows/all-shows?page=3"]');
    await b.page.waitForURL(`${b.base}/shows/all-shows?page=3`);
    const third = await ids(b);
    expect(third).toHaveLength(36);
    expect(third.filter((id) => first.includes(id))).toEqual([]);
    expect((await b.page.textContent('.pagination a[aria-current=page]'))?.trim()).toBe('3');
    await b.page.goBack();
    await b.page.waitForURL(`${b.base}/shows/all-shows`);
    await b.page.waitForFunction((id) => document.querySelector('.show-grid .show-tile')?.getAttribute('data-show-id') === String(id), first[0]);
    await click('.pagination a[href="/shows/all-shows?page=2"]');
    await b.page.waitForURL(`${b.base}/shows/all-shows?page=2`);
    await b.page.evaluate(() => window.scrollTo(0, 900));
    await click('.pagination a[href="/shows/all-shows"]:not([rel])');
    await b.page.waitForURL(`${b.base}/shows/all-shows`);
    expect(await ids(b)).toEqual(first);
    expect(await b.page.evaluate(() => window.scrollY)).toBe(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('the refresh button reloads the list', async () => {
    await open(b.page, '/');
    const res = b.page.waitForResponse((r) => r.url().includes('/api/shows/online'));
    await b.page.click('[data-testid=list-refresh]');
    expect((await res).status()).toBe(200);
    await b.page.waitForFunction(() => document.querySelector('.show-list')?.getAttribute('aria-busy') === 'false');
    expect(await b.page.locator(tiles).count()).toBe(36);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});

describe('show lists in German on a phone', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch(GERMAN_PHONE);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('renders home in German and nothing scrolls sideways', async () => {
    await open(b.page, '/');
    expect(await b.page.locator(tiles).count()).toBe(36);
    expect((await b.page.textContent('.promo-strip-title'))?.trim()).toBe(de.shows.promos.title);
    expect(await b.page.locator(`${tiles} .status.online`).first().textContent()).toBe(de.shows.online);
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await b.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await b.page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 72, tiles, { timeout: 10_000 });
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('a tile reached by keyboard shows the focus ring around the whole card (the card clips the link inside)', async () => {
    await open(b.page, '/');
    await b.page.focus(`${tiles} .tile-link`);
    // Focus from a script counts as keyboard focus only after a key press: move back and forth.
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.press('Shift+Tab');
    const ring = await b.page.evaluate(() => {
      const link = document.activeElement as HTMLElement;
      const card = link.closest('.show-tile')!;
      const style = (el: Element) => { const cs = getComputedStyle(el); return `${cs.outlineStyle} ${cs.outlineWidth}`; };
      return { link: link.classList.contains('tile-link') && link.matches(':focus-visible'), card: style(card) };
    });
    expect(ring).toEqual({ link: true, card: 'solid 2px' });
  });

  it('at 360 px no free-chat badge covers the online state of its tile', async () => {
    await b.page.setViewportSize({ width: 360, height: 780 });
    try {
      // Free shows that are live: every tile has both badges ("Live" and "Gratis-Chat").
      await open(b.page, '/freeshow');
      const pairs = await b.page.$$eval(tiles, (els) =>
        els.slice(0, 8).flatMap((el) => {
          const free = el.querySelector('.free-badge')?.getBoundingClientRect();
          const status = el.querySelector('.status')?.getBoundingClientRect();
          return free && status ? [free.left < status.right && status.left < free.right && free.top < status.bottom && status.top < free.bottom] : [];
        }),
      );
      expect(pairs.length).toBeGreaterThan(0);
      expect(pairs.filter(Boolean)).toEqual([]);
      expect(b.unexpectedProblems()).toEqual([]);
    } finally {
      await b.page.setViewportSize(GERMAN_PHONE.viewport!);
    }
  });
});
