import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { GERMAN_PHONE, launch, open, type Browser } from './browser';
import { newMember } from './members';

const tileLinks = '.show-grid .show-tile a.tile-link';
const crumbs = (b: Browser) => b.page.$$eval('.breadcrumbs li', (els) => els.map((e) => e.textContent?.trim()));

describe('show page', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('renders the show with breadcrumbs, and next leads to the next show of the list', async () => {
    await open(b.page, '/');
    const hrefs = await b.page.$$eval(tileLinks, (els) => els.slice(0, 3).map((e) => e.getAttribute('href')!));
    const names = await b.page.$$eval('.show-grid .show-tile h3', (els) => els.slice(0, 3).map((e) => e.textContent!));
    expect(hrefs[0]).toMatch(/^\/chat\/\d+\/[^/]+$/);

    await open(b.page, hrefs[1]);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(names[1]);
    expect(await crumbs(b)).toEqual([en.nav.home, names[1]]);
    expect(await b.page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}${hrefs[1]}`);
    expect(await b.page.getAttribute('[data-testid=show-prev]', 'href')).toBe(hrefs[0]);
    expect(await b.page.getAttribute('[data-testid=show-next]', 'href')).toBe(hrefs[2]);
    // Live state, texts, prices, facts, tags, the gallery.
    expect(await b.page.getAttribute('[data-testid=show-status]', 'data-online')).toBe('1');
    expect(await b.page.locator('.show-slogan').count()).toBe(1);
    expect(await b.page.textContent('[data-testid=price-private]')).toMatch(/coins?\/min/);
    expect(await b.page.textContent('[data-testid=count-videos]')).toMatch(/videos?/);
    // The show's videos and galleries in the store, nested in its address.
    expect(await b.page.getAttribute('[data-testid=count-videos]', 'href')).toBe(`${hrefs[1]}/videos`);
    expect(await b.page.getAttribute('[data-testid=count-galleries]', 'href')).toBe(`${hrefs[1]}/galleries`);
    expect(await b.page.getAttribute('.chip-list a[data-tag]', 'href')).toMatch(/^\/search\/shows\?tags=[a-z0-9-]+$/);
    const thumbs = b.page.locator('.gallery-thumbs .thumb');
    if ((await thumbs.count()) > 1) {
      await thumbs.nth(1).click();
      expect(await b.page.getAttribute('.gallery-main img', 'src')).toMatch(/\/2-l\.jpg$/);
    }
    // Visitors asking for a private chat go to sign-up.
    expect(await b.page.getAttribute('.chat-buttons [data-chat]:not([data-chat=free])', 'href')).toBe('/users/signup');

    await b.page.click('[data-testid=show-next]');
    await b.page.waitForURL(`${b.base}${hrefs[2]}`);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(names[2]);
    expect(await b.page.getAttribute('[data-testid=show-prev]', 'href')).toBe(hrefs[1]);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('within a category list: breadcrumbs and prev/next follow that list', async () => {
    await open(b.page, '/shows/20/toy-control/interactive-toy-control-shows');
    const catHref = await b.page.$eval('.category-bar a.active', (e) => e.getAttribute('href')!);
    const catName = (await b.page.textContent('main h1'))!.trim();
    const hrefs = await b.page.$$eval(tileLinks, (els) => els.slice(0, 2).map((e) => e.getAttribute('href')!));
    expect(hrefs[0].startsWith(`${catHref}/chat/`)).toBe(true);
    await open(b.page, hrefs[0]);
    expect((await crumbs(b)).slice(0, 2)).toEqual([en.nav.home, catName]);
    expect(await b.page.getAttribute('.breadcrumbs li:nth-child(2) a', 'href')).toBe(catHref);
    expect(await b.page.getAttribute('[data-testid=show-next]', 'href')).toBe(hrefs[1]);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('within a search: the search crumb and the search order', async () => {
    await open(b.page, '/search/shows?search=Berlin');
    const hrefs = await b.page.$$eval(tileLinks, (els) => els.slice(0, 2).map((e) => e.getAttribute('href')!));
    await open(b.page, hrefs[0]);
    expect((await crumbs(b)).slice(0, 2)).toEqual([en.nav.home, 'Search: Berlin']);
    expect(await b.page.getAttribute('.breadcrumbs li:nth-child(2) a', 'href')).toBe('/search/shows?search=Berlin');
    expect(await b.page.getAttribute('[data-testid=show-next]', 'href')).toBe(hrefs[1]);
    expect(await b.page.locator('[data-testid=show-prev]').count()).toBe(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('a wrong slug and /-/{id} go to the canonical address; an unknown id is a 404', async () => {
    await open(b.page, '/');
    const href = (await b.page.getAttribute(tileLinks, 'href'))!;
    const id = href.split('/')[2];
    await open(b.page, `/chat/${id}/wrong-slug`);
    expect(new URL(b.page.url()).pathname).toBe(href);
    await open(b.page, `/-/${id}`);
    expect(new URL(b.page.url()).pathname).toBe(href);
    await open(b.page, `/~shows/chat/${id}`);
    expect(new URL(b.page.url()).pathname).toBe(`/~shows${href}`);
    const res = await open(b.page, '/chat/987654/nobody', { hydrate: false });
    expect(res?.status()).toBe(404);
    expect(b.unexpectedProblems(b.page, { ignoreDocument404: true })).toEqual([]);
  });
});

describe('show page for a member', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('a chat button starts the chat: a member without a nickname is asked for one first', async () => {
    // Throws unless the login answers 200. A fresh member: no nickname yet.
    await newMember(b.page);
    await open(b.page, '/');
    const href = (await b.page.getAttribute('.show-grid .show-tile.online a.tile-link', 'href'))!;
    await open(b.page, href);
    // Private chat (or exclusive, for a show that is exclusive only).
    // Dispatched on the button itself: a member dialog (e.g. the welcome offer) may lie over the page.
    await b.page.$eval('button.chat-btn.btn-primary', (el) => (el as HTMLButtonElement).click());
    await b.page.locator('.nickname-dialog').waitFor();
    expect((await b.page.textContent('.nickname-dialog h2'))?.trim()).toBe(en.profile.nicknameDialog.title);
    // Cancelled: no chat, the buttons are ready again.
    await b.page.keyboard.press('Escape');
    await b.page.locator('.nickname-dialog').waitFor({ state: 'detached' });
    await b.page.locator('button.chat-btn.btn-primary:not([disabled])').waitFor();
    expect(await b.page.locator('[data-testid=chat-overlay]').count()).toBe(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});

describe('show page in German on a phone', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launch(GERMAN_PHONE);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('speaks German and fits 390 px', async () => {
    await open(b.page, '/');
    const href = (await b.page.getAttribute(tileLinks, 'href'))!;
    await open(b.page, href);
    expect((await crumbs(b))[0]).toBe(de.nav.home);
    expect([de.shows.chat.private, de.shows.chat.exclusive]).toContain((await b.page.textContent('.chat-btn.btn-primary'))?.trim());
    expect((await b.page.textContent('[data-testid=show-status]'))?.trim()).toBe(de.shows.online);
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(b.unexpectedProblems()).toEqual([]);
  });
});
