import { afterEach, describe, expect, it } from 'vitest';
import { daysUntil, launch, type Browser } from './browser';
import { DEMO, MESSAGES } from './members';

// A first visit with JavaScript disabled: the age splash and then the consent banner are answered
// by their forms, home shows, the login form posts to /login (a wrong password is answered by the
// server), and a show page opens. The first visit in English accepts the consent banner; the
// German one declines it, so both answers go through the form.

describe('without JavaScript', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('a first visit confirms the splash, sees home, accepts the consent banner, logs in and opens a show page (en)', async () => {
    const lang = 'en';
    const m = MESSAGES[lang];
    b = await launch({ javaScriptEnabled: false, cookies: { lang }, viewport: { width: 390, height: 844 } });
    b.context.setDefaultNavigationTimeout(60_000);
    const page = b.page;
    const base = b.base;

    const first = await page.goto(`${base}/`);
    expect(first?.status()).toBe(200);
    expect(await page.evaluate(() => typeof (window as { __lobby?: unknown }).__lobby)).toBe('undefined');
    await page.locator('.splash[role=dialog]').waitFor({ state: 'visible' });
    expect((await page.textContent('#splash-title'))?.trim()).toBe(m.splash.title);
    // The page behind is inert without any script; the confirm button has the focus.
    expect(await page.evaluate(() => !!document.querySelector('.app')?.closest('[inert]'))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('splash-confirm');

    const confirmed = page.waitForResponse((r) => r.url() === `${base}/splash18` && r.request().method() === 'POST');
    await page.click('[data-action=splash-confirm]');
    expect((await confirmed).status()).toBe(303);
    await page.waitForURL(`${base}/`);
    await page.waitForLoadState('load');
    expect(await page.locator('.splash').count()).toBe(0);
    expect((await b.cookie('splash18'))?.value).toBe('1');
    expect(await page.evaluate(() => !!document.querySelector('.app')?.closest('[inert]'))).toBe(false);
    expect(await page.locator('.show-grid .show-tile').count()).toBeGreaterThan(0);

    // The consent banner shows now; its buttons post its form to /consent, which sets the cookie
    // and comes back (declined in the German test below).
    const banner = page.locator('.consent');
    await banner.waitFor({ state: 'visible' });
    const [action, value] = ['consent-accept', '1'];
    const answered = page.waitForResponse((r) => r.url() === `${base}/consent` && r.request().method() === 'POST');
    await page.click(`.consent [data-action=${action}]`);
    expect((await answered).status()).toBe(303);
    await page.waitForURL(`${base}/`);
    await page.waitForLoadState('load');
    expect(await banner.count()).toBe(0);
    const consent = await b.cookie('consent_analytics');
    expect(consent?.value).toBe(value);
    expect(daysUntil(consent)).toBeGreaterThan(364);
    expect(daysUntil(consent)).toBeLessThan(366);

    // The top bar's login leads to /login; its form posts there.
    await page.click('[data-action=login-toggle]');
    await page.waitForURL(`${base}/login`);
    await page.fill('#page-login-username', DEMO.username);
    await page.fill('#page-login-password', 'not-the-password');
    const refused = page.waitForResponse((r) => r.url() === `${base}/login` && r.request().method() === 'POST');
    await page.click('[data-form=login] button[type=submit]');
    expect((await refused).status()).toBe(401);
    await page.locator('[data-testid=login-error]').waitFor();
    expect((await page.textContent('[data-testid=login-error]'))?.trim()).toBe(m.errors.unknown_credentials);
    expect(await page.inputValue('#page-login-username')).toBe(DEMO.username);

    await page.fill('#page-login-password', DEMO.password);
    const loggedIn = page.waitForResponse((r) => r.url() === `${base}/login` && r.request().method() === 'POST');
    await page.click('[data-form=login] button[type=submit]');
    expect((await loggedIn).status()).toBe(303);
    await page.waitForURL(`${base}/`);
    await page.waitForLoadState('load');
    await page.locator('[data-testid=coins]').first().waitFor();
    expect(await page.locator('[data-action=login-toggle]').count()).toBe(0);

    // A show tile's link opens the show page, rendered whole by the server.
    const href = await page.getAttribute('.show-grid .show-tile a[href]', 'href');
    expect(href).toBeTruthy();
    await page.click(`.show-grid .show-tile a[href="${href}"]`);
    await page.waitForURL(`${base}${href}`);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('.splash').count()).toBe(0);
    expect(await page.locator('[data-testid=coins]').count()).toBeGreaterThan(0);
    // The refused login answered 401 on purpose (Chromium logs every 4xx document).
    expect(b.unexpectedProblems().filter((line) => !/status of 401 .*\/login\)$/.test(line))).toEqual([]);
  });

  it('declining the consent banner goes through its form; at 1280 px the sidebar starts below the app bar that the noscript bar pushed down (de)', async () => {
    const m = MESSAGES.de;
    b = await launch({ javaScriptEnabled: false, cookies: { lang: 'de', splash: true }, viewport: { width: 1280, height: 800 } });
    const base = b.base;
    await b.page.goto(`${base}/faq`);
    const banner = b.page.locator('.consent');
    await banner.waitFor({ state: 'visible' });
    const answered = b.page.waitForResponse((r) => r.url() === `${base}/consent` && r.request().method() === 'POST');
    await b.page.click('.consent [data-action=consent-decline]');
    expect((await answered).status()).toBe(303);
    await b.page.waitForURL(`${base}/faq`);
    await b.page.waitForLoadState('load');
    expect(await banner.count()).toBe(0);
    const consent = await b.cookie('consent_analytics');
    expect(consent?.value).toBe('0');
    expect(daysUntil(consent)).toBeGreaterThan(364);
    expect((await b.page.textContent('.noscript'))?.trim()).toBe(m.common.noscript);
    // What is painted at the middle of the sidebar's first item (Home): the item, not the app bar.
    const shown = await b.page.evaluate(() => {
      const box = document.querySelector('[data-drawer-item=home]')!.getBoundingClientRect();
      return Boolean(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('[data-drawer-item=home]'));
    });
    expect(shown).toBe(true);

    // The server answers a wrong password in German too.
    await b.page.goto(`${base}/login`);
    await b.page.fill('#page-login-username', DEMO.username);
    await b.page.fill('#page-login-password', 'not-the-password');
    const refused = b.page.waitForResponse((r) => r.url() === `${base}/login` && r.request().method() === 'POST');
    await b.page.click('[data-form=login] button[type=submit]');
    expect((await refused).status()).toBe(401);
    expect((await b.page.textContent('[data-testid=login-error]'))?.trim()).toBe(m.errors.unknown_credentials);
    expect(b.unexpectedProblems().filter((line) => !/status of 401 .*\/login\)$/.test(line))).toEqual([]);
  });
});
