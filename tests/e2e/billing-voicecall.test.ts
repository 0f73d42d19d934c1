import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from './browser';
import { waitForIslands } from './browser';
import { launchIn, MESSAGES, open, openPicker, openPopup, registerMember, text, waitClosed } from './billing-helpers';

// Paying by phone: the popup shows the sandbox phone line; the opener checks the call every
// 2.5 s while pending and every 10 s while active. Active: popup closed, limited menus, a
// snackbar, back to the previous page. Ended: home, full menus again.

const VOICECALL_MENU = ['home', 'allShows', 'categories', 'search', 'faq', 'contact'];
const en = MESSAGES.en;

async function drawerKeys(page: import('playwright-core').Page): Promise<string[]> {
  return page.$$eval('nav#app-drawer [data-drawer-item]', (els) => els.map((el) => el.getAttribute('data-drawer-item') ?? ''));
}

describe('voice call (pay by phone)', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('en');
    await registerMember(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('closing the popup while pending stops the checks', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    await page.click('[data-payment-type="3"]');
    expect(await text(page, '[data-action=billing-buy]')).toBe('Pay by phone – €19.90');
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/phone\?bid=/);
    await page.locator('[data-testid=voicecall-pending]').waitFor();
    await popup.close();
    await page.locator('[data-testid=voicecall-pending]').waitFor({ state: 'detached', timeout: 8_000 });
  });

  it('goes pending -> active (limited menus, back to the previous page) -> ended (home)', async () => {
    const page = b.page;
    await open(page, '/faq');
    expect(await drawerKeys(page)).toContain('charge');
    // Through the drawer, so the billing page knows where the member came from.
    await page.click('[data-drawer-item=charge]');
    await page.waitForURL(/\/billing$/);
    await waitForIslands(page);
    await page.locator('[data-testid=billing-picker]').waitFor();
    await page.click('[data-payment-type="3"]');
    expect(await page.getAttribute('[data-payment-type="3"]', 'aria-selected')).toBe('true');

    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/phone\?bid=/);
    const phoneUrl = popup.url();
    expect(await text(popup, '[data-testid=phone-state]')).toBe(en.sandbox.phoneState.pending);
    await page.locator('[data-testid=voicecall-pending]').waitFor();

    // The call starts: the popup closes, the billing page goes back to /faq.
    await popup.click('[data-action=phone-start]');
    await waitClosed(popup, 8_000);
    await page.waitForURL(/\/faq$/, { timeout: 8_000 });
    await waitForIslands(page);

    // Limited menu, no coins, no buy-coins or pay-by-phone items.
    expect(await drawerKeys(page)).toEqual(VOICECALL_MENU);
    expect(await page.locator('[data-testid=coins]').count()).toBe(0);

    // The snackbar: 5 s, then again with a buy-coins action once it is gone.
    const snackbar = page.locator('[data-testid=snackbar]');
    await snackbar.waitFor();
    expect(await text(page, '[data-testid=snackbar] > span')).toBe(en.voicecall.active);
    await page.click('[data-testid=snackbar] button');
    await expect.poll(() => text(page, '[data-testid=snackbar] > span')).toBe(en.voicecall.activeAgain);
    expect(await text(page, '[data-testid=snackbar] a')).toBe(en.voicecall.buyCoins);

    // Billing pages are not for voice-call sessions.
    await page.goto(new URL('/billing', b.base).href);
    expect(new URL(page.url()).pathname).toBe('/');
    await waitForIslands(page);

    // The phone line can still be seen and the call ended there.
    const line = await b.newPage();
    await line.goto(phoneUrl);
    expect(await text(line, '[data-testid=phone-state]')).toBe(en.sandbox.phoneState.active);
    await open(page, '/faq');
    await line.click('[data-action=phone-end]');
    expect(await text(line, '[data-testid=phone-state]')).toBe(en.sandbox.phoneState.ended);
    await line.close();

    // The next check (every 10 s while active) finds the call over: home, full menus.
    await page.waitForURL(`${b.base}/`, { timeout: 15_000 });
    await waitForIslands(page);
    expect(await drawerKeys(page)).toContain('charge');
    expect(await page.locator('[data-testid=coins]').count()).toBe(1);
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});

describe('voice call for visitors', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('de');
  });
  afterAll(async () => {
    await b?.close();
  });

  it('/billing?voicecall=1 offers the phone payment without a login and opens the phone line', async () => {
    const page = b.page;
    await openPicker(page, '/billing?voicecall=1');
    expect(await text(page, 'h1')).toBe(MESSAGES.de.billing.voicecallTitle);
    // Only the phone type: no tabs, its one package preselected.
    expect(await page.locator('[data-payment-type]').count()).toBe(0);
    expect(await page.getAttribute('.billing-product.active', 'data-product')).toBe('8');
    expect(await text(page, '[data-action=billing-buy]')).toBe('Per Telefon bezahlen – 19,90 €');
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/phone\?bid=/);
    expect(await text(popup, '[data-testid=phone-state]')).toBe(MESSAGES.de.sandbox.phoneState.pending);
    await page.locator('[data-testid=voicecall-pending]').waitFor();
    // The session now carries the phone fields: the drawer offers paying by phone.
    await popup.close();
    await open(page, '/faq');
    expect(await drawerKeys(page)).toContain('voicecall');
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});
