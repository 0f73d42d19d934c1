import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from './browser';
import { openPicker, openPopup, topBarCoins, waitClosed } from './billing-helpers';
import { open } from './browser';
import { type Lang, launchIn, MESSAGES, newMember, text } from './members';

// Issue 9, point 14: the welcome offer the countdown promises (+20% coins and a free video on the
// first purchase) is paid: a visitor sees the countdown, signs up, buys inside it, and gets the
// bonus credited and the free video waiting in the profile. In German (its money formats too;
// billing-purchase.test.ts buys in English).

const money = (lang: Lang, amount: number) => new Intl.NumberFormat(lang, { style: 'currency', currency: 'EUR' }).format(amount).replace(/\s+/g, ' ');

const lang: Lang = 'de';
describe(`welcome offer (${lang})`, () => {
  let b: Browser;
  const m = MESSAGES[lang];
  beforeAll(async () => {
    b = await launchIn(lang);
  });
  afterAll(async () => {
    await b?.close();
  });

  it(`a new member who buys inside the countdown gets the package +20% and the free video (${lang})`, async () => {
    const page = b.page;
    // The visitor sees the countdown (its start is recorded by the server).
    const shown = page.waitForResponse((r) => r.url().endsWith('/api/session/incentive_tsp'));
    await open(page, '/faq');
    expect((await shown).status()).toBe(200);
    await page.locator('[data-testid=incentive-chip], [data-testid=incentive-panel]').first().waitFor();

    await newMember(page);
    await openPicker(page, '/billing');
    await page.locator('[data-testid=billing-welcome]').waitFor();
    expect(await text(page, '[data-testid=billing-welcome]')).toContain(m.billing.welcomeVideo);
    expect(await text(page, '.billing-product[data-product="2"] [data-testid=billing-welcome-bonus]')).toBe(m.billing.welcomeBonus_other.replace('{{count}}', '50'));
    const buy = m.billing.buy.replace('{{coins}}', '300').replace('{{price}}', money(lang, 23));
    expect(await text(page, '[data-action=billing-buy]')).toBe(buy);

    const popup = await openPopup(b.context, page);
    await popup.waitForURL(/\/billing\/sandbox\?bid=/);
    await popup.click('[data-action=sandbox-pay]');
    await page.locator('[data-testid=billing-dialog][data-kind=success]').waitFor();
    // Balance = base 250 + 20% (50): what the button said.
    await expect.poll(() => topBarCoins(page), { timeout: 10_000 }).toBe(300);
    expect(await text(page, '[data-testid=billing-dialog-balance]')).toBe(m.billing.balance_other.replace('{{count}}', '300'));
    await waitClosed(popup);
    await page.click('[data-action=billing-dialog-ok]');
    // Won once: the picker no longer offers it.
    await page.locator('[data-testid=billing-welcome]').waitFor({ state: 'detached' });
    expect(await text(page, '[data-action=billing-buy]')).toBe(m.billing.buy.replace('{{coins}}', '250').replace('{{price}}', money(lang, 23)));

    // The free video waits in the profile's vouchers as a prize, with honest text.
    await open(page, '/users/profile/coupons');
    const prize = page.locator('[data-coupon=WELCOMEVIDEO]');
    await prize.waitFor();
    expect(await prize.getAttribute('data-state')).toBe('valid');
    expect(await text(page, '[data-coupon=WELCOMEVIDEO] [data-testid=coupon-text]')).toBe(m.coupons.prize.VIDEO);
    expect(await text(page, '[data-coupon=WELCOMEVIDEO] [data-testid=coupon-waiting]')).toBe(m.coupons.prize.waiting.VIDEO);
    expect(b.unexpectedProblems(page)).toEqual([]);
  });
});
