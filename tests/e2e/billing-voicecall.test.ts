import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from './browser';
import { call, open, waitForIslands } from './browser';
import { openPicker, openPopup, topBarCoins, waitClosed } from './billing-helpers';
import { launchIn, MESSAGES, newMember, text } from './members';

// Paying by phone: the call is the payment. The picker says what the call costs (per call) and
// gives (coins); the phone line charges once when the call connects and the coins are credited.
// While the call runs the session is in voice-call mode: limited menus that say why, the balance,
// and "End call", which hangs up server-side. Closing the phone window while pending stops the checks.

const VOICECALL_MENU = ['home', 'allShows', 'categories', 'search', 'faq', 'contact'];
const PRICE = { en: '€19.90', de: '19,90 €' } as const;

async function drawerKeys(page: Page): Promise<string[]> {
  return page.$$eval('nav#app-drawer [data-drawer-item]', (els) => els.map((el) => el.getAttribute('data-drawer-item') ?? ''));
}

const fill = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

// The member's flow in English; German for visitors below.
describe('pay by phone (en)', () => {
  const M = MESSAGES.en;
  const price = PRICE.en;
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('en');
    await newMember(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('closing the phone window while pending stops the checks and charges nothing', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    await page.click('[data-payment-type="3"]');
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/phone\?bid=/);
    await page.locator('[data-testid=voicecall-pending]').waitFor();
    await popup.close();
    await page.locator('[data-testid=voicecall-pending]').waitFor({ state: 'detached', timeout: 8_000 });
    expect(await topBarCoins(page)).toBe(0);
  });

  it('shows what the call costs and gives, credits the coins, says why the menus are limited, and ends from the page', async () => {
    const page = b.page;
    await open(page, '/faq');
    // Through the drawer, so the billing page knows where the member came from.
    await page.click('[data-drawer-item=charge]');
    await page.waitForURL(/\/billing$/);
    await waitForIslands(page);
    await page.locator('[data-testid=billing-picker]').waitFor();
    await page.click('[data-payment-type="3"]');

    // What it costs and what it gives.
    const pkg = page.locator('.billing-product[data-product="8"]');
    expect(await text(page, '.billing-product[data-product="8"] .billing-product-name')).toBe(M.billing.products['8']);
    expect(await text(page, '.billing-product[data-product="8"] .billing-coins strong')).toBe('200');
    expect(await text(page, '.billing-product[data-product="8"] .billing-price')).toBe(`${price} ${M.billing.perCall}`);
    expect(await pkg.count()).toBe(1);
    expect(await text(page, '[data-action=billing-buy]')).toBe(fill(M.billing.callNow, { coins: 200, price }));
    expect(await text(page, '[data-testid=billing-hint]')).toBe(fill(M.billing.phoneHint, { price }));

    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/phone\?bid=/);
    expect(await text(popup, '[data-testid=phone-price]')).toBe(price);
    expect(await text(popup, '[data-testid=phone-coins]')).toBe('200');
    expect(await text(popup, '[data-testid=phone-state]')).toBe(M.sandbox.phoneState.pending);
    await page.locator('[data-testid=voicecall-pending]').waitFor();

    // The call connects: charged once, the popup closes, the billing page goes back to /faq.
    await popup.click('[data-action=phone-start]');
    await waitClosed(popup, 8_000);
    await page.waitForURL(/\/faq$/, { timeout: 8_000 });
    await waitForIslands(page);

    // Limited menu that says why, with the balance and "End call".
    expect(await drawerKeys(page)).toEqual(VOICECALL_MENU);
    const notice = page.locator('[data-testid=voicecall-notice-drawer]');
    await notice.waitFor();
    expect(await text(page, '[data-testid=voicecall-notice-drawer] .voicecall-notice-text')).toBe(M.voicecall.notice);
    await expect.poll(() => text(page, '[data-testid=voicecall-balance]')).toBe(fill(M.billing.balance_other, { count: 200 }));
    expect(await topBarCoins(page)).toBe(200);
    expect(await text(page, '[data-testid=voicecall-notice-drawer] [data-action=voicecall-end]')).toBe(M.voicecall.endCall);

    // The snackbar, then again saying why the menus are limited.
    await page.locator('[data-testid=snackbar]').waitFor();
    expect(await text(page, '[data-testid=snackbar] > span')).toBe(M.voicecall.active);
    await page.click('[data-testid=snackbar] button');
    await expect.poll(() => text(page, '[data-testid=snackbar] > span')).toBe(M.voicecall.activeAgain);
    expect(await page.locator('[data-testid=snackbar] a').count()).toBe(0);

    // Billing pages are not for voice-call sessions; the notice is on every page.
    await page.goto(new URL('/billing', b.base).href);
    expect(new URL(page.url()).pathname).toBe('/');
    await waitForIslands(page);
    await notice.waitFor();

    // "End call" hangs up server-side: home, full menus, the coins stay.
    await open(page, '/faq');
    await notice.waitFor();
    await Promise.all([page.waitForURL(`${b.base}/`, { timeout: 15_000 }), page.click('[data-testid=voicecall-notice-drawer] [data-action=voicecall-end]')]);
    await waitForIslands(page);
    expect(await drawerKeys(page)).toContain('charge');
    expect(await page.locator('[data-testid^=voicecall-notice]').count()).toBe(0);
    expect(await topBarCoins(page)).toBe(200);
    const check = await call<{ status: string; voicecall: boolean }>(page, 'GET', 'billing/check_phonecall');
    expect(check.body).toMatchObject({ status: 'ended', voicecall: false });
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});

describe('pay by phone for visitors (de)', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('de');
  });
  afterAll(async () => {
    await b?.close();
  });

  it('/billing?voicecall=1 shows what the call costs and gives, and that the coins need an account', async () => {
    const de = MESSAGES.de;
    const page = b.page;
    await openPicker(page, '/billing?voicecall=1');
    expect(await text(page, 'h1')).toBe(de.billing.voicecallTitle);
    // Only the phone type: no tabs, its one package preselected.
    expect(await page.locator('[data-payment-type]').count()).toBe(0);
    expect(await page.getAttribute('.billing-product.active', 'data-product')).toBe('8');
    expect(await text(page, '.billing-product.active .billing-coins strong')).toBe('200');
    expect(await text(page, '.billing-product.active .billing-price')).toBe(`${PRICE.de} ${de.billing.perCall}`);
    expect(await text(page, '[data-testid=billing-phone-login]')).toBe(de.billing.phoneLogin);
    expect(await page.locator('[data-action=billing-buy]').count()).toBe(0);
    expect(await page.getAttribute('[data-action=billing-phone-login]', 'href')).toBe(`/login?redirect=${encodeURIComponent('/billing?voicecall=1')}`);
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});
