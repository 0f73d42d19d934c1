import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from './browser';
import { topBarCoins } from './billing-helpers';
import { open } from './browser';
import { launchIn, MESSAGES, newMember, text } from './members';

// The coupons tab of the profile: redeeming codes (coins credited at once) and the voucher list
// (in English; german.test.ts redeems one in German).

describe('coupons panel (en)', () => {
  let b: Browser;
  const m = MESSAGES.en;
  beforeAll(async () => {
    b = await launchIn('en');
    await newMember(b.page);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('starts empty and needs at least 3 characters', async () => {
    const page = b.page;
    await open(page, '/users/profile/coupons');
    await page.locator('[data-testid=coupons-empty]').waitFor();
    expect(await text(page, '.coupons-empty-title')).toBe(m.coupons.list.emptyTitle);
    await page.fill('#coupon-code', 'AB');
    expect(await page.isDisabled('[data-action=coupon-redeem]')).toBe(true);
    await page.fill('#coupon-code', 'ABC');
    expect(await page.isDisabled('[data-action=coupon-redeem]')).toBe(false);
  });

  it('redeems LOYAL25: the balance grows by 25 and the list shows it used', async () => {
    const page = b.page;
    await open(page, '/users/profile/coupons');
    const before = await topBarCoins(page);
    await page.fill('#coupon-code', 'loyal25');
    await page.click('[data-action=coupon-redeem]');
    const notice = page.locator('[data-testid=coupon-notice][data-kind=success]');
    await notice.waitFor();
    expect(await text(page, '[data-testid=coupon-notice]')).toBe(m.coupons.redeemed.coins_other.replace('{{count}}', '25'));
    await expect.poll(() => topBarCoins(page)).toBe(before + 25);
    const item = page.locator('[data-coupon=LOYAL25]');
    await item.waitFor();
    expect(await item.getAttribute('data-state')).toBe('used');
    expect(await text(page, '[data-coupon=LOYAL25] [data-testid=coupon-text]')).toBe('25 Coins');
    expect(await page.inputValue('#coupon-code')).toBe('');

    // The balance is the server's: after a reload it is still there.
    await open(page, '/users/profile/coupons');
    expect(await topBarCoins(page)).toBe(before + 25);
  });

  it('says so for a redeemed, a sign-up-only, an expired and an unknown code', async () => {
    const page = b.page;
    await open(page, '/users/profile/coupons');
    const before = await topBarCoins(page);
    for (const [code, message] of [
      ['LOYAL25', m.errors.coupon_redeemed],
      ['WELCOME50', m.errors.coupon_signup_only],
      ['EXPIRED1', m.errors.coupon_invalid],
      ['NOSUCHCODE', m.errors.coupon_invalid],
    ]) {
      await page.fill('#coupon-code', code);
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/coupons/redeem')), page.click('[data-action=coupon-redeem]')]);
      expect(res.status(), code).toBe(code === 'LOYAL25' ? 409 : 422);
      await expect.poll(() => text(page, '[data-testid=coupon-notice][data-kind=error]'), { message: code }).toBe(message);
    }
    expect(await topBarCoins(page)).toBe(before);
  });

  it('keeps EURO, percent and prize vouchers with their texts', async () => {
    const page = b.page;
    await open(page, '/users/profile/coupons');
    const before = await topBarCoins(page);

    await page.fill('#coupon-code', 'BONUS10');
    await page.click('[data-action=coupon-redeem]');
    await page.locator('[data-coupon=BONUS10]').waitFor();
    // EURO 10 at 0.1 EUR per coin: 100 coins at once.
    await expect.poll(() => topBarCoins(page)).toBe(before + 100);
    expect(await text(page, '[data-coupon=BONUS10] [data-testid=coupon-text]')).toBe('10 EUR');

    await page.fill('#coupon-code', 'HALFPRICE');
    await page.click('[data-action=coupon-redeem]');
    await page.locator('[data-coupon=HALFPRICE]').waitFor();
    expect(await text(page, '[data-testid=coupon-notice]')).toBe(m.coupons.redeemed.percent.replace('{{percent}}', '50'));
    expect(await text(page, '[data-coupon=HALFPRICE] [data-testid=coupon-text]')).toBe('50%');
    expect(await page.getAttribute('[data-coupon=HALFPRICE]', 'data-state')).toBe('valid');

    await page.fill('#coupon-code', 'FREEVIDEO');
    await page.click('[data-action=coupon-redeem]');
    await page.locator('[data-coupon=FREEVIDEO]').waitFor();
    expect(await text(page, '[data-coupon=FREEVIDEO] [data-testid=coupon-text]')).toBe(m.coupons.prize.VIDEO);
    expect(await text(page, '[data-coupon=FREEVIDEO] .coupon-badge-prize')).toBe(m.coupons.prize.badge);
    // Valid for years: no remaining days shown (only at 14 or fewer).
    expect(await page.locator('[data-coupon=FREEVIDEO] [data-testid=coupon-days]').count()).toBe(0);
    expect(await page.locator('.coupons-list > li').count()).toBe(4);

    // A redeemed percent voucher is the member's campaign on the billing page.
    await open(page, '/billing');
    await page.locator('[data-testid=billing-campaign]').waitFor();
    expect(await text(page, '.billing-product[data-product="2"] [data-testid=billing-bonus]')).toContain('125');
    // Chromium logs the refused redemptions of the test before (409, 422); nothing else.
    expect(b.unexpectedProblems(page).filter((l) => !/status of (409|422) .*\/api\/coupons\/redeem/.test(l))).toEqual([]);
  });
});

describe('free coins page', () => {
  let b: Browser;
  const en = MESSAGES.en;
  beforeAll(async () => {
    b = await launchIn('en');
  });
  afterAll(async () => {
    await b?.close();
  });

  it('explains the ways to free coins to visitors and members', async () => {
    const page = b.page;
    await open(page, '/users/free_coins');
    expect(await page.getAttribute('[data-testid=free-coins]', 'data-available')).toBe('1');
    expect(await text(page, 'h1')).toBe(en.freeCoins.title);
    expect(await page.$$eval('[data-way]', (els) => els.map((e) => e.getAttribute('data-way')))).toEqual(['vouchers', 'game', 'welcome']);
    expect(await page.getAttribute('[data-way=game] a', 'href')).toBe('/game');
    expect(await page.getAttribute('[data-way=welcome] a', 'href')).toBe('/users/signup');
    // The drawer links here.
    expect(await page.getAttribute('[data-drawer-item=freeCoins]', 'href')).toBe('/users/free_coins');

    await newMember(page);
    await open(page, '/users/free_coins');
    expect(await page.getAttribute('[data-way=vouchers] a', 'href')).toBe('/users/profile/coupons');
    expect(await page.getAttribute('[data-way=welcome] a', 'href')).toBe('/users/profile/coupons');
    expect(b.unexpectedProblems(page)).toEqual([]);
  });

  it('in German', async () => {
    const de = await launchIn('de');
    try {
      await open(de.page, '/users/free_coins');
      expect(await text(de.page, 'h1')).toBe(MESSAGES.de.freeCoins.title);
      expect(await text(de.page, '[data-way=game] h2')).toBe(MESSAGES.de.freeCoins.game.title);
    } finally {
      await de.close();
    }
  });
});
