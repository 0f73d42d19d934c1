import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { launch, open, type Browser } from './browser';
import { LANGS, MESSAGES, registerMember, uniq } from './members';

// Every modal keeps the keyboard: 20 presses of Tab (and a few of Shift+Tab) never leave it, the
// page behind is inert and does not scroll, and Escape does what the spec says.

const PRESSES = 20;

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
      return { inside, path: path.join(' < ') || '(body)', index: active ? [...document.querySelectorAll('*')].indexOf(active) : -1 };
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

describe.each(LANGS)('modals keep the keyboard (%s)', (lang) => {
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
    await registerMember(page);
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
