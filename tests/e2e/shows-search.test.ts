import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { GERMAN_PHONE, launch, open, waitForIslands, type Browser } from './browser';

const input = '[data-testid=quicksearch-input]';
const panel = '[data-testid=quicksearch-panel]';
const resultLinks = `${panel} a.qs-option`;

describe('quicksearch', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('searches from 3 characters on (not at 2), grouped, with a link to all results', async () => {
    await open(b.page, '/');
    const searches: string[] = [];
    b.page.on('request', (r) => r.url().includes('/api/search/all') && searches.push(r.url()));
    await b.page.click(input);
    await b.page.keyboard.type('Be', { delay: 30 });
    await b.page.waitForTimeout(900); // well past the 500 ms debounce
    expect(searches).toEqual([]);
    expect(await b.page.locator(resultLinks).count()).toBe(0);

    await b.page.keyboard.type('r');
    await b.page.locator(resultLinks).first().waitFor({ timeout: 15_000 });
    expect(searches).toHaveLength(1);
    const q = new URL(searches[0]).searchParams;
    expect([q.get('search'), q.get('page'), q.get('limit'), q.get('extend')]).toEqual(['Ber', '1', '6', '0']);
    expect(await b.page.locator(`${panel} .qs-group-head`).first().textContent()).toMatch(/^Shows \(\d+\)/);
    expect(await b.page.getAttribute('[data-testid=qs-all]', 'href')).toBe('/search?search=Ber');

    // Arrow keys move through the results.
    await b.page.keyboard.press('ArrowDown');
    const active = await b.page.getAttribute(input, 'aria-activedescendant');
    expect(active).toBe('qs-opt-0');
    expect(await b.page.getAttribute(`#${active}`, 'aria-selected')).toBe('true');
    await b.page.keyboard.press('ArrowUp');
    expect(await b.page.getAttribute(input, 'aria-activedescendant')).toBeNull();

    // Fewer than 3 characters clear the results.
    await b.page.keyboard.press('Backspace');
    await b.page.waitForFunction((sel) => document.querySelectorAll(sel).length === 0, resultLinks);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('Enter opens the search page; the history keeps the query after a reload; it can be cleared', async () => {
    await open(b.page, '/');
    await b.page.evaluate(() => localStorage.removeItem('search_history'));
    await b.page.click(input);
    await b.page.keyboard.type('Berlin');
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(`${b.base}/search?search=Berlin`);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(en.search.titleTerm.replace('{{term}}', 'Berlin'));
    // When Enter came before the quicksearch's lazy panel, the form submitted natively and the
    // search page's island writes the history once hydrated: leave only after that.
    await waitForIslands(b.page);

    await open(b.page, '/');
    await b.page.reload();
    await waitForIslands(b.page);
    await b.page.click(input);
    const entry = b.page.locator('[data-testid=qs-history-entry]');
    await entry.first().waitFor();
    expect(await entry.allTextContents()).toEqual(['Berlin']);
    // A history entry searches at once.
    await entry.first().click();
    await b.page.locator(resultLinks).first().waitFor({ timeout: 15_000 });
    expect(await b.page.inputValue(input)).toBe('Berlin');

    await b.page.fill(input, '');
    await b.page.locator('[data-testid=qs-clear-history]').click();
    expect(await b.page.locator('[data-testid=qs-history-entry]').count()).toBe(0);
    expect(await b.page.evaluate(() => localStorage.getItem('search_history'))).toBeNull();

    // Enter searches what the field holds, even before the panel rendered the last keys.
    await b.page.$eval(input, (el) => {
      (el as HTMLInputElement).value = 'Hamburg';
    });
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(`${b.base}/search?search=Hamburg`);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('finds a performer by name ("frieda blue", "Liv Joy"), and lists shows in the order of the search page', async () => {
    const idsOf = async (selector: string) =>
      (await b.page.locator(selector).evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''))).map((h) => Number(/\/chat\/(\d+)\//.exec(h)?.[1]));
    const quick = async (term: string) => {
      await open(b.page, '/');
      await b.page.click(input);
      await b.page.keyboard.type(term);
      await b.page.locator(`${panel} a.qs-option[href^="/chat/"]`).first().waitFor({ timeout: 15_000 });
      return b.page.locator(`${panel} [aria-labelledby=qs-shows-title] .qs-title`).first().textContent();
    };
    expect(await quick('frieda blue')).toMatch(/^FriedaBlue \d+$/);
    expect(await quick('Liv Joy')).toMatch(/^LivJoy \d+$/);
    expect(await quick('liv')).toMatch(/^Liv \d+$/);
    const shown = await idsOf(`${panel} [aria-labelledby=qs-shows-title] a.qs-option`);
    expect(shown.length).toBeGreaterThan(1);
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(`${b.base}/search?search=liv`);
    const listed = await idsOf('[data-section=shows] .show-tile a[href^="/search/shows/chat/"]');
    expect([...new Set(listed)].slice(0, shown.length)).toEqual(shown);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('clicking a result opens the show; the field closes after blur', async () => {
    await open(b.page, '/');
    await b.page.click(input);
    await b.page.keyboard.type('Berlin');
    const first = b.page.locator(`${panel} a.qs-option[href^="/chat/"]`).first();
    await first.waitFor({ timeout: 15_000 });
    const href = (await first.getAttribute('href'))!;
    await first.click();
    await b.page.waitForURL(`${b.base}${href}`);
    expect(await b.page.locator('.show-page').count()).toBe(1);

    await b.page.click(input);
    await b.page.keyboard.type('Berlin');
    await b.page.locator(resultLinks).first().waitFor({ timeout: 15_000 });
    await b.page.click('main h1');
    await b.page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('hidden'), panel);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});

describe('search pages', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('/search?search=<city> lists shows from that city, videos and galleries', async () => {
    await open(b.page, '/search?search=Berlin');
    const crumbs = await b.page.$$eval('.breadcrumbs li', (els) => els.map((e) => e.textContent?.trim()));
    expect(crumbs).toEqual([en.nav.home, 'Search: Berlin']);
    const cities = await b.page.$$eval('[data-section=shows] .show-tile .location', (els) => els.map((e) => e.textContent));
    expect(cities.length).toBeGreaterThan(0);
    expect(cities.every((c) => c === 'Berlin')).toBe(true);
    expect(await b.page.getAttribute('[data-section=shows] .show-tile a', 'href')).toMatch(/^\/search\/shows\/chat\/\d+\/[^/?]+\?search=Berlin$/);
    expect(await b.page.locator('.search-tabs a').count()).toBe(4);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('a location search lists shows by distance', async () => {
    await open(b.page, '/search?lat=52.52&lon=13.405');
    const crumbs = await b.page.$$eval('.breadcrumbs li', (els) => els.map((e) => e.textContent?.trim()));
    expect(crumbs).toEqual([en.nav.home, en.search.crumbNearby]);
    expect(await b.page.locator('.show-grid .show-tile').count()).toBe(36);
    const km = await b.page.$$eval('[data-testid=distance]', (els) => els.map((e) => Number(/([\d.]+) km/.exec(e.textContent ?? '')?.[1])));
    expect(km).toHaveLength(36);
    expect(km.every(Number.isFinite)).toBe(true);
    expect(km[0]).toBeLessThan(10);
    expect([...km].sort((x, y) => x - y)).toEqual(km);
    // Page links keep the location.
    expect(await b.page.getAttribute('.pagination a[rel=next]', 'href')).toBe('/search?lat=52.52&lon=13.405&page=2');
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('tags from a show page search shows with that tag; filter chips replace the list', async () => {
    await open(b.page, '/search/shows?tags=travel');
    const count = await b.page.locator('.show-grid .show-tile').count();
    expect(count).toBeGreaterThan(0);
    const chip = b.page.locator('.filter-chips a[data-filter]:not([data-filter=""])').first();
    const value = await chip.getAttribute('data-filter');
    await chip.click();
    await b.page.waitForURL((u) => u.searchParams.get('cat') === value && u.searchParams.get('tags') === 'travel');
    expect(await b.page.getAttribute('.filter-chips a[aria-current=true]', 'data-filter')).toBe(value);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('a search without hits says so, with the term, in every tab', async () => {
    for (const tab of ['shows', 'videos', 'galleries']) {
      await open(b.page, `/search/${tab}?search=zzzqqq`);
      expect((await b.page.textContent('.empty-state p'))?.trim()).toBe(en.shows.list.noMatch.replace('{{term}}', 'zzzqqq'));
    }
    // Without a term (an unknown tag here) the list's own empty text stays.
    await open(b.page, '/search/shows?search=*&tags=nosuchtag');
    expect((await b.page.textContent('.empty-state p'))?.trim()).toBe(en.shows.list.empty.shows);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('videos and galleries tabs list tiles', async () => {
    await open(b.page, '/search/videos?search=Berlin');
    expect(await b.page.locator('.video-tile').count()).toBeGreaterThan(0);
    await open(b.page, '/search/galleries');
    expect(await b.page.locator('.gallery-tile').count()).toBe(48);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});

describe('search in German', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch(GERMAN_PHONE);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('quicksearch and the location search speak German at 390 px', async () => {
    await open(b.page, '/');
    await b.page.click(input);
    await b.page.keyboard.type('Musik');
    await b.page.locator(resultLinks).first().waitFor({ timeout: 15_000 });
    expect(await b.page.textContent('[data-testid=qs-all]')).toBe(de.search.quick.showAll);
    // The field spreads over the bar; nothing scrolls sideways.
    const box = await b.page.locator('.qs-form').boundingBox();
    expect(box!.width).toBeGreaterThan(340);
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await open(b.page, '/search?lat=52.52&lon=13.405');
    expect((await b.page.textContent('main h1'))?.trim()).toBe(de.search.titleNearby);
    expect(await b.page.locator('[data-testid=distance]').first().textContent()).toMatch(/^\d+,\d km entfernt$/);

    await open(b.page, '/search/shows?search=Zzzqqq');
    expect((await b.page.textContent('.empty-state p'))?.trim()).toBe(de.shows.list.noMatch.replace('{{term}}', 'Zzzqqq'));
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
