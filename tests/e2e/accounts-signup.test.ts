import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, type Browser, open } from './browser';
import { logoutByMenu, startupWritesDone } from './accounts-helpers';
import { launchIn, mailLink, mails, MESSAGES, text, uniq } from './members';

/** Registers through the sign-up page; ends on the success page (logged in). */
async function signUp(page: Page, user: { email: string; username: string; password: string }): Promise<void> {
  await open(page, '/users/signup');
  await startupWritesDone(page);
  await page.fill('#signup-reg-email', user.email);
  await page.fill('#signup-reg-password', user.password);
  await page.fill('#signup-reg-username', user.username);
  await page.check('#signup-reg-terms');
  await page.click('form[data-form=register] button[type=submit]');
  await page.waitForURL(`${baseUrl()}/users/signup_success`);
}

// Each flow runs in one language (they alternate; German is covered page by page in german.test.ts).
describe('sign-up', () => {
  let b: Browser | undefined;
  let other: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    await other?.close();
    b = undefined;
    other = undefined;
  });

  it('sign up -> success page -> mailed link verifies (another browser is asked to log in; again: already confirmed) -> log out -> same e-mail again shows the reset link (en)', async () => {
    const lang = 'en';
    const m = MESSAGES[lang];
    b = await launchIn(lang);
    const page = b.page;
    const username = `e2e_${lang}_${uniq()}`;
    const email = `${username}@example.com`;
    const password = 'e2e-secret-pass';

    await open(page, '/users/signup');
    expect(await text(page, 'main h1')).toBe(m.auth.register.title);
    // Tabs: register first, login second, keyboard accessible.
    const tabs = page.locator('[role=tablist] [role=tab]');
    expect(await tabs.count()).toBe(2);
    expect(await tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    await tabs.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    expect(await tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-tab') === 'login');
    await page.locator('#signup-panel-login form[data-form=login]').waitFor();
    await page.keyboard.press('ArrowLeft');
    expect(await tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    expect(await page.getAttribute('#signup-reg-email', 'autocomplete')).toBe('email');
    expect(await page.getAttribute('#signup-reg-password', 'autocomplete')).toBe('new-password');
    expect(await page.getAttribute('#signup-reg-username', 'autocomplete')).toBe('username');
    // Terms label links.
    expect(await page.getAttribute('[data-field=terms_check] a[href="/terms"]', 'href')).toBe('/terms');
    expect(await page.getAttribute('[data-field=terms_check] a[href="/privacy_policy"]', 'href')).toBe('/privacy_policy');

    // Submitting empty shows field errors and focuses the e-mail field.
    await page.click('form[data-form=register] button[type=submit]');
    expect(await text(page, '[data-field=email] [role=alert]')).toBe(m.errors.email_invalid);
    expect(await text(page, '[data-field=terms_check] [role=alert]')).toBe(m.errors.terms_required);
    await page.waitForFunction(() => document.activeElement?.id === 'signup-reg-email');

    await signUp(page, { email, username, password });
    expect(await text(page, 'main h1')).toBe(m.auth.success.title);
    expect(await text(page, '[data-testid=success-text]')).toBe(m.auth.success.text.replace('{{email}}', email));
    expect(await page.locator('.blurbs .blurb').count()).toBe(3);
    expect(await page.getAttribute('[data-page=signup-success] a[data-action=next]', 'href')).toBe('/');
    // Registered members are logged in at once (unverified).
    expect(await text(page, '[data-testid=member-name]')).toBe(username);

    // The verification mail (in the member's language) links to /users/activate.
    const [mail] = await mails(email, { kind: 'verify', wait: 10_000 });
    expect(mail.subject).toBe(m.mail.verify.subject.replace('{{brand}}', m.common.brand));
    const link = mailLink(mail, '/users/activate?token=');

    // Issue 9 point 7: opened in another browser (no login there), the link verifies the address
    // but logs in only the session that registered; the other browser is asked to log in.
    other = await launchIn(lang);
    await open(other.page, link);
    await other.page.locator('[data-state=verified-login]').waitFor();
    expect(await text(other.page, '[data-state=verified-login] .form-alert')).toBe(m.auth.activate.verifiedLogin);
    await open(other.page, '/');
    expect(await other.page.locator('[data-testid=member-name]').count()).toBe(0);
    // Point 17: a second use of the link tells the verified member it is already confirmed.
    await open(page, link);
    await page.locator('[data-testid=token-already]').waitFor();
    expect(await text(page, '[data-testid=token-already]')).toBe(m.auth.activate.already);
    expect(await text(page, '[data-testid=member-name]')).toBe(username);

    // Log out; the success page is guarded once the session forgot the address.
    await open(page, '/');
    await logoutByMenu(page);
    await page.goto(`${baseUrl()}/users/signup_success`);
    expect(page.url()).toBe(`${baseUrl()}/`);

    // The same address again: the 409 info with a link to the reset form.
    await open(page, '/users/signup');
    await startupWritesDone(page);
    await page.fill('#signup-reg-email', email.toUpperCase());
    await page.fill('#signup-reg-password', password);
    await page.fill('#signup-reg-username', `e2e_${lang}_${uniq()}`);
    await page.check('#signup-reg-terms');
    await page.click('form[data-form=register] button[type=submit]');
    const info = page.locator('[data-testid=register-exists]');
    await info.waitFor();
    expect(await info.getAttribute('role')).toBe('status');
    const resetHref = await page.getAttribute('[data-testid=register-exists] a', 'href');
    expect(resetHref).toBe(`/users/reset?email=${encodeURIComponent(email.toUpperCase())}`);
    await page.click('[data-testid=register-exists] a');
    await page.waitForURL(`${baseUrl()}${resetHref}`);
    await page.locator('form[data-form=reset-request]').waitFor();
    expect(await page.inputValue('#reset-reset-login')).toBe(email.toUpperCase());
    // Chromium logs the expected 409 of POST register as a failed resource; nothing else.
    expect(b.unexpectedProblems().filter((l) => !/status of 409/.test(l))).toEqual([]);
  });

  it('suggests a mail domain fix and checks vouchers (de)', async () => {
    const m = MESSAGES.de;
    b = await launchIn('de');
    const page = b.page;
    await open(page, '/users/signup');
    await page.fill('#signup-reg-email', 'someone@gmial.com');
    const suggestion = page.locator('[data-testid=mail-suggestion]');
    await suggestion.waitFor();
    expect(await text(page, '[data-testid=mail-suggestion]')).toBe(m.auth.register.didYouMean.replace(/<\/?fix>/g, '').replace('{{suggestion}}', 'someone@gmail.com'));
    await page.click('[data-action=apply-suggestion]');
    expect(await page.inputValue('#signup-reg-email')).toBe('someone@gmail.com');
    await suggestion.waitFor({ state: 'detached' });

    await page.fill('#signup-reg-code', 'WELCOME50');
    const valid = page.locator('[data-testid=voucher-valid]');
    await valid.waitFor();
    expect(await text(page, '[data-testid=voucher-valid]')).toContain('WELCOME50');
    expect(await page.locator('[data-testid=voucher-valid] svg').count()).toBe(1);

    await page.fill('#signup-reg-code', 'XYZ123');
    await page.locator('[data-field=code] [role=alert]').waitFor();
    expect(await text(page, '[data-field=code] [role=alert]')).toBe(m.errors.coupon_invalid);
    expect(await page.locator('[data-testid=voucher-valid]').count()).toBe(0);
    expect(await page.getAttribute('#signup-reg-code', 'aria-invalid')).toBe('true');

    // Emptying the field clears the check.
    await page.fill('#signup-reg-code', '');
    await page.locator('[data-field=code] [role=alert]').waitFor({ state: 'detached' });
  });

  it('/users/signup/coupon/:code prefills and checks the voucher on load; ?email= prefills the address (en)', async () => {
    const m = MESSAGES.en;
    b = await launchIn('en');
    const page = b.page;
    await open(page, '/users/signup/coupon/BONUS10?email=pre%40example.com');
    expect(await page.inputValue('#signup-reg-code')).toBe('BONUS10');
    expect(await page.inputValue('#signup-reg-email')).toBe('pre@example.com');
    await page.locator('[data-testid=voucher-valid]').waitFor({ timeout: 5_000 });
    await open(page, '/users/signup/coupon/EXPIRED1');
    await page.locator('[data-field=code] [role=alert]').waitFor({ timeout: 5_000 });
    expect(await text(page, '[data-field=code] [role=alert]')).toBe(m.errors.coupon_invalid);
  });
});

describe('#sign-in dialog', () => {
  it('opens the registration screen as a modal for visitors; Escape closes it and drops the hash', async () => {
    const b = await launchIn('en');
    try {
      const page = b.page;
      await open(page, '/terms#sign-in');
      const dialog = page.locator('[data-testid=register-dialog]');
      await dialog.waitFor();
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      expect((await dialog.boundingBox())?.width).toBeLessThanOrEqual(640);
      await page.waitForFunction(() => document.activeElement?.id === 'dlg-reg-email');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).hash).toBe('');
      // A hash change on the page opens it too.
      await page.evaluate(() => (location.hash = '#sign-in'));
      await dialog.waitFor();
      await page.click('[data-testid=register-dialog] [data-tab=login]');
      await page.locator('[data-testid=register-dialog] form[data-form=login]').waitFor();
    } finally {
      await b.close();
    }
  });
});
