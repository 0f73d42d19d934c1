import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { GallerySummary, Paged, ShowDetail } from '../../src/shared/shows';
import { openPicker, openPopup } from './billing-helpers';
import { baseUrl, call, launch, open, type Browser } from './browser';
import { grantCoins, MESSAGES, newMember, uniq } from './members';
import { homeShows, overlay, performerStudio, person, roomsBrowser, startChat } from './rooms-helpers';

// Every modal keeps the keyboard: 20 presses of Tab (and a few of Shift+Tab) never leave it, the
// page behind is inert and does not scroll, and Escape does what the spec says. Every modal of the
// app: the splash, drawer, login panel, register, nickname, confirm, welcome, payment result,
// message popup, favourite settings, picture viewer, chat alert, chat, rating and partner frame.

const PRESSES = 20;
/** The demo's partner shows (contentprovider_id 2): their chat runs in the partner's frame. */
const PARTNER_SHOWS = Array.from({ length: 10 }, (_, i) => 241 + i);

/**
 * Presses Tab 20 times, then Shift+Tab 5 times; after each press the focus must be inside
 * `selector`. Answers how many different elements had the focus.
 */
async function tabsStayInside(page: Page, selector: string): Promise<number> {
  const seen = new Set<number>();
  for (let i = 0; i < PRESSES + 5; i++) {
    await page.keyboard.press(i < PRESSES ? 'Tab' : 'Shift+Tab');
    const where = await page.evaluate((sel) => {
      const active = document.activeElement;
      const inside = !!active && active !== document.body && !!document.querySelector(sel)?.contains(active);
      const path: string[] = [];
      for (let el: Element | null = active; el && el !== document.body; el = el.parentElement) path.push(`${el.tagName}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}`);
      // The element's own mark, not its place in the document: islands and preloads that arrive
      // while tabbing add nodes before it.
      const w = window as unknown as { tabMarks?: WeakMap<Element, number>; tabMarked?: number };
      w.tabMarks ??= new WeakMap();
      if (active && !w.tabMarks.has(active)) w.tabMarks.set(active, (w.tabMarked = (w.tabMarked ?? 0) + 1));
      return { inside, path: path.join(' < ') || '(body)', index: (active && w.tabMarks.get(active)) ?? -1 };
    }, selector);
    expect(where.inside, `press ${i + 1}: focus on ${where.path}, outside ${selector}`).toBe(true);
    seen.add(where.index);
  }
  return seen.size;
}

/** The page behind a modal (its main content): inert, and the document does not scroll. */
async function pageBehind(page: Page): Promise<{ inert: boolean; overflow: string }> {
  return page.evaluate(() => ({
    inert: !!document.querySelector('main#main')?.closest('[inert]'),
    overflow: getComputedStyle(document.documentElement).overflowY,
  }));
}

/**
 * Everything around an open modal that sits inside the page's content (the message popup, the
 * chat): each sibling of the modal and of its ancestors must be inert, so nothing outside can be
 * reached. Answers those that are not (empty: all inert), and whether the document scrolls.
 */
async function aroundModal(page: Page, selector: string): Promise<{ reachable: string[]; overflow: string }> {
  return page.evaluate((sel) => {
    const reachable: string[] = [];
    for (let node = document.querySelector(sel); node && node !== document.body && node.parentElement; node = node.parentElement) {
      for (const sibling of node.parentElement.children) {
        if (sibling === node || ['SCRIPT', 'STYLE', 'TEMPLATE'].includes(sibling.tagName) || sibling.closest('[inert]')) continue;
        if (sibling.getClientRects().length === 0) continue;
        reachable.push(`${sibling.tagName}.${[...sibling.classList].join('.')}`);
      }
    }
    return { reachable, overflow: getComputedStyle(document.documentElement).overflowY };
  }, selector);
}

/**
 * The open modal `selector` keeps the keyboard: everything around it is inert, the page does not
 * scroll, Tab stays inside (at least `stops` elements take the focus); then, with `escape`,
 * Escape closes it.
 */
async function keepsKeyboard(page: Page, selector: string, stops: number, { escape = true } = {}): Promise<void> {
  await page.locator(selector).waitFor();
  expect(await aroundModal(page, selector)).toEqual({ reachable: [], overflow: 'hidden' });
  expect(await tabsStayInside(page, selector)).toBeGreaterThanOrEqual(stops);
  if (!escape) return;
  await page.keyboard.press('Escape');
  await page.locator(selector).waitFor({ state: 'detached' });
}

// In German (the other modals below in English).
describe.each(['de'] as const)('modals keep the keyboard (%s)', (lang) => {
  const m = MESSAGES[lang];
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('the open splash, the drawer, the login panel, the register dialog, the nickname and confirm dialogs', async () => {
    b = await launch({ cookies: { consent: true, lang }, viewport: { width: 800, height: 900 } });
    const page = b.page;
    b.context.setDefaultNavigationTimeout(60_000);

    // The age splash on a first visit: modal from the server's first byte.
    await open(page, '/');
    await page.locator('.splash[role=dialog]').waitFor();
    expect((await page.textContent('#splash-title'))?.trim()).toBe(m.splash.title);
    expect(await pageBehind(page)).toEqual({ inert: true, overflow: 'hidden' });
    expect(await tabsStayInside(page, '.splash')).toBe(2);
    // Escape does not dismiss the age question: it must be answered.
    await page.keyboard.press('Escape');
    expect(await page.locator('.splash[role=dialog]').count()).toBe(1);
    await page.click('[data-action=splash-confirm]');
    await page.locator('.splash').waitFor({ state: 'detached' });
    expect(await pageBehind(page)).toEqual({ inert: false, overflow: 'visible' });

    // The drawer below 1264 px: a modal panel; Escape closes it and the focus goes back to the toggle.
    await page.click('.drawer-toggle');
    await page.locator('nav#app-drawer.drawer-open').waitFor();
    await page.waitForFunction(() => document.querySelector('nav#app-drawer')?.contains(document.activeElement) === true);
    expect(await pageBehind(page)).toEqual({ inert: true, overflow: 'hidden' });
    expect(await tabsStayInside(page, 'nav#app-drawer')).toBeGreaterThan(5);
    await page.keyboard.press('Escape');
    await page.locator('nav#app-drawer.drawer-open').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('drawer-toggle'))).toBe(true);
    expect(await pageBehind(page)).toEqual({ inert: false, overflow: 'visible' });

    // The login panel of the top bar.
    await page.click('[data-action=login-toggle]');
    await page.locator('[data-testid=login-panel] input[name=username]').waitFor();
    expect(await tabsStayInside(page, '[data-testid=login-panel]')).toBeGreaterThan(3);
    expect(await pageBehind(page)).toEqual({ inert: true, overflow: 'hidden' });
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=login-panel]').waitFor({ state: 'detached' });

    // The register dialog (#sign-in); Escape closes it and removes the hash.
    await open(page, '/#sign-in');
    await page.locator('[data-testid=register-dialog] input[name=email]').waitFor();
    expect(await pageBehind(page)).toEqual({ inert: true, overflow: 'hidden' });
    expect(await tabsStayInside(page, '[data-testid=register-dialog]')).toBeGreaterThan(5);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=register-dialog]').waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('');

    // A member's nickname dialog and the confirm dialog in front of the settings.
    await newMember(page);
    await open(page, '/users/profile/settings');
    await page.click('[data-action=nick-add]');
    await page.locator('.nickname-dialog[role=dialog]').waitFor();
    expect(await pageBehind(page)).toEqual({ inert: true, overflow: 'hidden' });
    expect(await tabsStayInside(page, '.nickname-dialog')).toBeGreaterThan(1);
    const nickname = `k${uniq()}`.slice(0, 12);
    await page.fill('[data-testid=nickname-input]', nickname);
    await page.click('[data-action=nickname-submit]');
    await page.locator('.nickname-dialog').waitFor({ state: 'detached' });
    await page.locator(`.pf-nick[data-nickname="${nickname}"]`).waitFor();
    await page.click(`.pf-nick[data-nickname="${nickname}"] [data-action=nick-remove]`);
    await page.locator('.confirm[role=alertdialog]').waitFor();
    expect(await tabsStayInside(page, '.confirm')).toBe(2);
    await page.keyboard.press('Escape');
    await page.locator('.confirm').waitFor({ state: 'detached' });
    expect(await page.locator(`.pf-nick[data-nickname="${nickname}"]`).count()).toBe(1);
    expect(await pageBehind(page)).toEqual({ inert: false, overflow: 'visible' });
    expect(b.unexpectedProblems()).toEqual([]);
  });
});

describe('the other modals keep the keyboard (en)', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('the welcome dialog, a payment result, the message popup, the favourite settings and the picture viewer', async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 800, height: 900 } });
    const page = b.page;

    // A new member's welcome dialog; Escape closes it.
    const member = await newMember(page, { welcome: true });
    await open(page, '/faq');
    await keepsKeyboard(page, '[data-testid=welcome-dialog]', 2);

    // The payment result after the popup was cancelled; Escape closes it.
    await openPicker(page);
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    await popup.click('[data-action=sandbox-cancel]');
    await keepsKeyboard(page, '[data-testid=billing-dialog][data-kind=cancel]', 1);

    // The message popup of a show page; Escape closes it.
    await open(page, '/');
    const showPath = (await page.getAttribute('.show-grid .show-tile a[href]', 'href'))!;
    await open(page, showPath);
    await page.click('[data-testid=open-conversation]');
    await keepsKeyboard(page, '[data-testid=message-popup]', 2);

    // The settings of a favourite; Escape closes them.
    const showId = /^\/chat\/(\d+)\//.exec(showPath)![1];
    const added = page.waitForResponse((r) => r.url().endsWith(`/api/favorites/${showId}`) && r.status() === 201);
    await page.click('.show-header [data-testid=favorite-button]');
    await added;
    await open(page, '/users/profile/favorites');
    await page.locator(`[data-testid=favorites-list] .fav-item[data-show-id="${showId}"] [data-testid=favorite-cog]`).click();
    await keepsKeyboard(page, '[data-testid=favorite-settings]', 3);

    // The picture viewer of a bought gallery; Escape closes it.
    const galleries = await call<Paged<GallerySummary>>(page, 'GET', 'search/galleries?limit=48&sort=price_asc');
    const gallery = galleries.body.data.find((g) => g.price > 0 && g.picture_count >= 2)!;
    await grantCoins(member.id, gallery.price, `modals-e2e-${uniq()}`);
    expect((await call(page, 'POST', `galleries/buy/${gallery.showId}/${gallery.id}`, {})).status).toBe(200);
    await open(page, `/galleries/pictures/${gallery.showId}/${gallery.id}`);
    await page.locator('button[data-testid=picture-thumb]').first().click();
    await keepsKeyboard(page, '[data-testid=picture-viewer]', 2);
    expect(await pageBehind(page)).toEqual({ inert: false, overflow: 'visible' });
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('in a live room: the refusal of a chat without coins, the chat itself, ending it, the rating, and the chat frame of a partner show', async () => {
    const browser = await roomsBrowser();
    try {
      const show = (await homeShows((s) => s.online && s.freemode && s.contentproviderId === 1 && !s.exclusiveOnly)).at(-1)!;
      const [studio, poor, member] = await Promise.all(['desktop', 'desktop', 'phone'].map((d) => person(browser, 'en', d as 'desktop' | 'phone')));
      await Promise.all([performerStudio(studio, show, { online: true }), newMember(poor, { ageChecked: true, nickname: true }), newMember(member, { coins: show.pricing.private * 4, ageChecked: true, nickname: true })]);

      // A private without coins is refused in an alert; Escape closes it.
      await startChat(poor, show, 'private');
      await keepsKeyboard(poor, '[data-testid=chat-alert]', 1);

      // The running private: the chat is a modal layer of its own.
      await startChat(member, show, 'private');
      await overlay(member).and(member.locator('[data-state=pending]')).waitFor();
      await studio.locator('.studio-request [data-testid=studio-accept]').click();
      await keepsKeyboard(member, '[data-testid=chat-overlay][data-state=running]', 3, { escape: false });

      // Ending asks first: Escape keeps the chat, confirming ends it; then the rating.
      await member.click('[data-testid=chat-end]');
      await member.locator('.dialog.confirm').waitFor();
      expect(await tabsStayInside(member, '.dialog.confirm')).toBe(2);
      await member.keyboard.press('Escape');
      await member.locator('.dialog.confirm').waitFor({ state: 'detached' });
      await overlay(member).and(member.locator('[data-state=running]')).waitFor();
      await member.click('[data-testid=chat-end]');
      await member.click('.dialog.confirm .btn-primary');
      await keepsKeyboard(member, '[data-testid=rating-dialog]', 2);
      expect(await pageBehind(member)).toEqual({ inert: false, overflow: 'visible' });

      // A partner show's chat runs in its frame, a modal layer too (Tab enters the frame and comes back).
      const partners = await Promise.all(PARTNER_SHOWS.map(async (id) => (await (await fetch(`${baseUrl()}/api/shows/${id}`)).json()) as ShowDetail));
      const partner = partners.filter((s) => s.contentproviderId > 1 && s.online && s.freemode).at(-1)!;
      await performerStudio(await person(browser, 'en', 'desktop'), partner, { online: true });
      await startChat(member, partner, 'free');
      await member.frameLocator('[data-testid=external-frame]').locator('[data-testid=external-chat][data-state=running]').waitFor();
      await keepsKeyboard(member, '[data-testid=external-overlay][data-state=running]', 2, { escape: false });
    } finally {
      await browser.close();
    }
  });
});
