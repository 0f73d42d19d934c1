import { afterEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { daysUntil, launch, open, type Browser } from './browser';

const splash = '.splash[role=dialog]';
const confirmBtn = '[data-action=splash-confirm]';

describe('age splash', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('is server-rendered open on the first visit, focuses confirm and hides the consent banner', async () => {
    b = await launch();
    const res = await open(b.page, '/');
    expect(res?.status()).toBe(200);
    expect(await res?.text()).toContain('data-action="splash-confirm"');
    await b.page.locator(splash).waitFor({ state: 'visible' });
    expect(await b.page.locator('#splash-title').textContent()).toBe(en.splash.title);
    await b.page.waitForFunction((sel) => document.activeElement?.matches(sel) === true, confirmBtn, { polling: 50 });
    // The consent banner waits until the splash is answered.
    expect(await b.page.locator('.consent').count()).toBe(0);
    expect(await b.cookie('splash18')).toBeUndefined();
  });

  it('confirming hides it, sets splash18=1 (HttpOnly) and the server stops rendering it', async () => {
    b = await launch();
    await open(b.page, '/');
    const post = b.page.waitForResponse((r) => r.url().endsWith('/api/session/splash18') && r.request().method() === 'POST');
    await b.page.click(confirmBtn);
    expect((await post).status()).toBe(200);
    await b.page.locator(splash).waitFor({ state: 'detached' });

    const cookie = await b.cookie('splash18');
    expect(cookie?.value).toBe('1');
    expect(cookie?.httpOnly).toBe(true);
    expect(daysUntil(cookie)).toBeGreaterThan(300);
    // The write went through the API layer, which fetched the CSRF cookie first.
    expect((await b.cookie('XSRF-TOKEN'))?.value).toBeTruthy();
    // Now the consent question may be asked.
    await b.page.locator('.consent').waitFor({ state: 'visible' });

    const again = await b.page.reload();
    expect(await again?.text()).not.toContain('data-action="splash-confirm"');
    expect(await b.page.locator(splash).count()).toBe(0);
    expect(await b.page.locator('.show-grid .show-tile').count()).toBeGreaterThan(0);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('leave navigates away to the exit URL', async () => {
    b = await launch();
    await open(b.page, '/');
    const leave = b.page.locator('[data-action=splash-leave]');
    expect(await leave.getAttribute('href')).toBe('about:blank');
    await leave.click();
    await b.page.waitForURL('about:blank');
    expect(b.page.url()).toBe('about:blank');
    expect(await b.cookie('splash18')).toBeUndefined();
  });
});
