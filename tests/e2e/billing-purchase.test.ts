import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from './browser';
import { lobbyConnected, open, waitForIslands } from './browser';
import { openPicker, openPopup, topBarCoins, waitClosed } from './billing-helpers';
import { launchIn, MESSAGES, newMember, text } from './members';

// Buying coins: the picker, the popup with the sandbox checkout, the opener's dialogs, and the
// new balance arriving in another tab over the live socket.

describe('billing page access', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('en');
  });
  afterAll(async () => {
    await b?.close();
  });

  it('sends visitors to the login (and back afterwards)', async () => {
    for (const path of ['/billing', '/bill', '/billing/f/HALFPRICE']) {
      await b.page.goto(new URL(path, b.base).href);
      expect(new URL(b.page.url()).pathname, path).toBe('/login');
      expect(new URL(b.page.url()).searchParams.get('redirect'), path).toBe(path);
    }
  });

  it('the fetchUser window message renews the session of a visitor', async () => {
    await open(b.page, '/faq');
    const [req] = await Promise.all([
      b.page.waitForRequest((r) => new URL(r.url()).pathname === '/api/session/init'),
      b.page.evaluate(() => window.postMessage('fetchUser', location.origin)),
    ]);
    expect(req.method()).toBe('GET');
  });
});

describe('buying coins in the popup (en)', () => {
  let b: Browser;
  const en = MESSAGES.en;
  beforeAll(async () => {
    b = await launchIn('en');
    await newMember(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('preselects the first payment type and the default package, shows the limit', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    expect(await page.getAttribute('[data-payment-type="1"]', 'aria-selected')).toBe('true');
    expect(await page.getAttribute('[data-payment-type="2"]', 'aria-selected')).toBe('false');
    expect(await page.locator('[data-payment-type]').count()).toBe(3);
    // The package flagged isDefault ("Popular", 250 coins) is chosen.
    expect(await page.getAttribute('.billing-product.active', 'data-product')).toBe('2');
    expect(await page.locator('.billing-product').count()).toBe(4);
    // A new member inside the welcome window: every package shows its +20%, the button the total.
    expect(await text(page, '.billing-product[data-product="2"] [data-testid=billing-welcome-bonus]')).toBe('+50 welcome coins');
    expect(await text(page, '[data-action=billing-buy]')).toBe('Buy 300 coins for €23.00');
    expect(await text(page, '[data-testid=billing-limit]')).toBe('Daily limit €500.00, still available today: €500.00');
    // Another type: its own default package.
    await page.click('[data-payment-type="2"]');
    expect(await page.getAttribute('[data-payment-type="2"]', 'aria-selected')).toBe('true');
    expect(await page.getAttribute('.billing-product.active', 'data-product')).toBe('6');
    await page.click('[data-payment-type="1"]');
    expect(b.unexpectedProblems(page)).toEqual([]);
  });

  it('pays in the sandbox: the popup closes, the success dialog shows and a second tab gets the new balance', async () => {
    const page = b.page;
    const second = await b.newPage();
    await open(second, '/faq');
    await lobbyConnected(second);
    const before = await topBarCoins(second);

    await openPicker(page, '/billing');
    expect(await topBarCoins(page)).toBe(before);
    await page.click('.billing-product[data-product="3"]');
    expect(await text(page, '[data-action=billing-buy]')).toBe('Buy 600 coins for €45.00');

    // Record how the popup is opened (named, 870 x 700, centred).
    await page.evaluate(() => {
      const original = window.open.bind(window);
      const w = window as unknown as { __opened: unknown[] };
      w.__opened = [];
      window.open = (...args: Parameters<typeof window.open>) => {
        w.__opened.push(args);
        return original(...args);
      };
    });
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    const processId = await text(popup, '[data-testid=process-id]');
    expect(processId).toMatch(/^BS\d+$/);
    const [[url, name, features]] = (await page.evaluate(() => (window as unknown as { __opened: string[][] }).__opened)) as string[][];
    expect(url).toBe('/billing/transfer?paymenttypeid=1&productid=3&paymenttypename=Credit+card');
    expect(name).toBe('billing_popup');
    expect(features).toMatch(/width=870,height=700,left=\d+,top=\d+/);
    expect(await popup.evaluate(() => window.name)).toBe('billing_popup');
    await popup.click('[data-action=sandbox-pay]');

    const dialog = page.locator('[data-testid=billing-dialog][data-kind=success]');
    await dialog.waitFor();
    expect(await text(page, '#billing-dialog-title')).toBe(en.billing.dialog.success.title);
    expect(await text(page, '[data-testid=billing-process-id]')).toBe(processId);
    expect(await page.$eval('.billing-dialog', (el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(460);
    // The popup closes 2 s after the result.
    await waitClosed(popup);

    // The other tab learns the balance without a reload (live socket), the opener too.
    // What the button promised: 500 coins and the welcome offer's 100.
    await expect.poll(() => topBarCoins(second), { timeout: 10_000 }).toBe(before + 600);
    await expect.poll(() => topBarCoins(page), { timeout: 10_000 }).toBe(before + 600);
    expect(await text(page, '[data-testid=billing-dialog-balance]')).toBe(`Your balance: ${before + 600} coins`);
    await page.click('[data-action=billing-dialog-ok]');
    await dialog.waitFor({ state: 'detached' });
    // The limit shrank by the purchase.
    await expect.poll(() => text(page, '[data-testid=billing-limit]')).toBe('Daily limit €500.00, still available today: €455.00');
    expect(b.unexpectedProblems(page)).toEqual([]);
    expect(b.unexpectedProblems(second)).toEqual([]);
    await second.close();
  });

  it('the fetchUser window message refetches the member', async () => {
    const page = b.page;
    await open(page, '/faq');
    const [req] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/user'),
      page.evaluate(() => window.postMessage({ type: 'fetchUser' }, location.origin)),
    ]);
    expect(req.method()).toBe('GET');
    // Messages of other shapes are ignored.
    await page.evaluate(() => window.postMessage({ result: 'billing.bogus', billingid: 1 }, location.origin));
    await page.waitForTimeout(300);
    expect(await page.locator('[data-testid=billing-dialog]').count()).toBe(0);
  });

  it('/billing/f/HALFPRICE shows the bonus and books it', async () => {
    const page = b.page;
    const before = await topBarCoins(page);
    await openPicker(page, '/billing/f/HALFPRICE');
    await page.locator('[data-testid=billing-campaign]').waitFor();
    expect(await text(page, '[data-testid=billing-campaign]')).toBe('Voucher HALFPRICE: 50% bonus coins on this purchase');
    expect(await text(page, '.billing-product[data-product="2"] [data-testid=billing-bonus]')).toBe('+125 bonus coins');
    expect(await text(page, '.billing-product[data-product="1"] [data-testid=billing-bonus]')).toBe('+50 bonus coins');
    expect(await text(page, '[data-action=billing-buy]')).toBe('Buy 375 coins for €23.00');

    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    expect(new URL(popup.url()).pathname).toBe('/billing/sandbox');
    await popup.click('[data-action=sandbox-pay]');
    await page.locator('[data-testid=billing-dialog][data-kind=success]').waitFor();
    await expect.poll(() => topBarCoins(page), { timeout: 10_000 }).toBe(before + 375);
    await waitClosed(popup);
    await page.click('[data-action=billing-dialog-ok]');
  });

  it('an unknown code gives no bonus and says so', async () => {
    const page = b.page;
    await openPicker(page, '/billing/f/NOSUCHCODE');
    await page.locator('[data-testid=billing-code-ignored]').waitFor();
    expect(await page.locator('[data-testid=billing-campaign]').count()).toBe(0);
    expect(await page.locator('[data-testid=billing-bonus]').count()).toBe(0);
  });

  it('a blocked popup shows a message with a link that opens it', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    await page.evaluate(() => {
      window.open = () => null;
    });
    await page.click('[data-action=billing-buy]');
    const blocked = page.locator('[data-testid=billing-popup-blocked]');
    await blocked.waitFor();
    expect(await text(page, '[data-testid=billing-popup-blocked]')).toContain(en.billing.popupBlocked);
    const href = await page.getAttribute('[data-action=billing-open-popup]', 'href');
    expect(href).toBe('/billing/transfer?paymenttypeid=1&productid=2&paymenttypename=Credit+card');
    const popup = await openPopup(b.context, page, '[data-action=billing-open-popup]');
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    await popup.click('[data-action=sandbox-cancel]');
    await page.locator('[data-testid=billing-dialog][data-kind=cancel]').waitFor();
    await waitClosed(popup);
    await page.click('[data-action=billing-dialog-ok]');
  });

  it('a failing list shows the 503 state, and retry loads it', async () => {
    const page = b.page;
    await page.route('**/api/billing', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"server_error"}' }));
    await open(page, '/billing');
    const unavailable = page.locator('[data-testid=billing-unavailable]');
    await unavailable.waitFor();
    expect(await unavailable.getAttribute('data-status')).toBe('503');
    expect(await text(page, '[data-testid=billing-unavailable] h2')).toBe(en.billing.unavailable.title);
    await page.unroute('**/api/billing');
    await page.click('[data-action=billing-retry]');
    await page.locator('[data-testid=billing-picker]').waitFor();
    expect(await page.getAttribute('[data-payment-type="1"]', 'aria-selected')).toBe('true');
  });

  it('/billing/transfer without a package reports the error to the page', async () => {
    const page = b.page;
    await open(page, '/billing/transfer?paymenttypeid=1', { hydrate: true });
    await page.locator('[data-testid=billing-transfer][data-state=error]').waitFor();
    expect(await text(page, '[data-testid=billing-transfer]')).toContain(MESSAGES.en.errors.product_invalid);
  });
});

// In German (the purchase above is English).
describe('cancel and failure dialogs (de)', () => {
  let b: Browser;
  const lang = 'de';
  const m = MESSAGES[lang];
  beforeAll(async () => {
    b = await launchIn(lang);
    await newMember(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('cancel: dialog with description, contact hint and the process id; nothing booked', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    const before = await topBarCoins(page);
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    await waitForIslands(popup);
    const processId = await text(popup, '[data-testid=process-id]');
    await popup.click('[data-action=sandbox-cancel]');
    await page.locator('[data-testid=billing-dialog][data-kind=cancel]').waitFor();
    await waitClosed(popup);
    expect(await text(page, '#billing-dialog-title')).toBe(m.billing.dialog.cancel.title);
    expect(await text(page, '#billing-dialog-text')).toBe(m.billing.dialog.cancel.text);
    expect(await text(page, '.billing-contact .muted')).toBe(m.billing.dialog.cancel.contact);
    expect(await text(page, '[data-testid=billing-process-id]')).toBe(processId);
    expect(await page.getAttribute('[data-action=billing-contact-form]', 'href')).toMatch(/#contact$/);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=billing-dialog]').waitFor({ state: 'detached' });
    expect(await topBarCoins(page)).toBe(before);
  });

  it('failure: dialog with description, process id and a prefilled contact subject', async () => {
    const page = b.page;
    await openPicker(page, '/billing');
    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    const processId = await text(popup, '[data-testid=process-id]');
    await popup.click('[data-action=sandbox-fail]');
    await page.locator('[data-testid=billing-dialog][data-kind=error]').waitFor();
    await waitClosed(popup);
    expect(await text(page, '#billing-dialog-title')).toBe(m.billing.dialog.error.title);
    expect(await text(page, '#billing-dialog-text')).toBe(m.billing.dialog.error.text);
    expect(await text(page, '[data-testid=billing-process-id]')).toBe(processId);
    const subject = `Payment Error (ProcessID ${processId})`;
    const mail = await page.getAttribute('[data-action=billing-contact-mail]', 'href');
    expect(mail).toMatch(/^mailto:[^?]+@[^?]+\?subject=/);
    expect(decodeURIComponent(mail!.split('?subject=')[1])).toBe(subject);
    const form = new URL((await page.getAttribute('[data-action=billing-contact-form]', 'href'))!, b.base);
    expect(form.pathname).toBe('/contact');
    expect(form.hash).toBe('#contact');
    expect(form.searchParams.get('subject')).toBe(subject);
    await page.click('[data-action=billing-dialog-ok]');
    await page.locator('[data-testid=billing-dialog]').waitFor({ state: 'detached' });

    // The contact page offers the mail to support with that subject.
    await open(page, `${form.pathname}${form.search}`);
    expect(await text(page, '[data-testid=contact-subject]')).toBe(subject);
    const support = page.locator('[data-testid=contact-mail] a');
    expect(await support.textContent()).toBe(m.info.mailSupport);
    expect(decodeURIComponent((await support.getAttribute('href'))!.split('?subject=')[1])).toBe(subject);
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});
