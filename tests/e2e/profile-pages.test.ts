import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, call, open, waitForIslands } from './browser';
import { launchIn, loginDemo, MESSAGES, PASSWORD, newMember } from './members';

// /users/profile with its tabs, the settings (newsletter, password) and deleting the account.

describe('profile pages', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('sends visitors to the login and unconfirmed members to /verify', async () => {
    b = await launchIn('en');
    for (const path of ['/users/profile', '/users/profile/coupons', '/users/profile/favorites', '/users/profile/settings', '/users/cancel']) {
      await b.page.goto(new URL(path, b.base).href);
      expect(new URL(b.page.url()).pathname, path).toBe('/login');
    }
    await newMember(b.page, { verified: false });
    await b.page.goto(new URL('/users/profile/settings', b.base).href);
    expect(new URL(b.page.url()).pathname).toBe('/verify');
    // Deleting the account does not need a confirmed address.
    await open(b.page, '/users/cancel');
    expect(new URL(b.page.url()).pathname).toBe('/users/cancel');
  });

  it('shows the tabs with the current one highlighted and the favourites empty state (en)', async () => {
    const lang = 'en';
    const m = MESSAGES[lang].profile;
    b = await launchIn(lang);
    await loginDemo(b.page);
    const res = await open(b.page, '/users/profile');
    expect(res?.status()).toBe(200);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(m.title);
    expect(await b.page.getAttribute('[data-tab=overview]', 'aria-current')).toBe('page');
    expect((await b.page.textContent('.profile-greeting'))?.trim()).toBe(m.overview.greeting.replace('{{name}}', 'demo'));
    expect(await b.page.textContent('[data-testid=profile-coins]')).toMatch(/\d+/);

    // Vouchers: the coupons panel (billing) lives in this tab.
    await b.page.click('[data-tab=coupons]');
    await b.page.waitForURL((u) => u.pathname === '/users/profile/coupons');
    await waitForIslands(b.page);
    expect(await b.page.getAttribute('[data-tab=coupons]', 'aria-current')).toBe('page');
    expect(await b.page.getAttribute('[data-tab=overview]', 'aria-current')).toBeNull();
    expect((await b.page.textContent('[data-tab=coupons]'))?.trim()).toBe(m.tabs.coupons);
    expect(await b.page.locator('.profile-body [data-island=CouponsPanel]').count()).toBe(1);

    // Favourites: not built yet, a friendly empty state.
    await b.page.click('[data-tab=favorites]');
    await b.page.waitForURL((u) => u.pathname === '/users/profile/favorites');
    await waitForIslands(b.page);
    expect(await b.page.getAttribute('[data-tab=favorites]', 'aria-current')).toBe('page');
    expect(await b.page.getAttribute('[data-tab=coupons]', 'aria-current')).toBeNull();
    expect((await b.page.textContent('[data-testid=favorites-empty] h2'))?.trim()).toBe(m.favorites.title);
    expect((await b.page.textContent('[data-testid=favorites-empty] p'))?.trim()).toBe(m.favorites.text);
    expect((await b.page.textContent('[data-testid=favorites-empty] a'))?.trim()).toBe(m.favorites.link);
    expect(await b.page.locator('[data-testid=favorites-empty] svg').count()).toBe(1);

    await b.page.click('[data-tab=settings]');
    await b.page.waitForURL((u) => u.pathname === '/users/profile/settings');
    await waitForIslands(b.page);
    expect((await b.page.textContent('[data-testid=account-name]'))?.trim()).toBe('demo');
    expect(await b.page.textContent('[data-testid=account-email]')).toContain('demo@example.com');
    expect(await b.page.locator('#nicknames').isVisible()).toBe(true);
    expect(await b.page.getAttribute('[data-action=cancel-account]', 'href')).toBe('/users/cancel');
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('changes the newsletter setting (de)', async () => {
    const lang = 'de';
    const m = MESSAGES[lang].profile.settings.newsletter;
    b = await launchIn(lang);
    await newMember(b.page);
    await open(b.page, '/users/profile/settings');
    const toggle = b.page.locator('[data-testid=newsletter-toggle]');
    const before = await toggle.isChecked();
    const put = b.page.waitForResponse((r) => r.url().endsWith('/api/user/update_newsletter') && r.request().method() === 'PUT');
    await b.page.locator('.pf-switch').click();
    expect((await put).status()).toBe(200);
    await b.page.waitForFunction((want) => (document.querySelector('[data-testid=newsletter-toggle]') as HTMLInputElement).checked === want, !before);
    expect((await b.page.textContent('[data-testid=snackbar] span'))?.trim()).toBe(before ? m.off : m.on);
    const user = await call<{ user: { newsletter: boolean } }>(b.page, 'GET', 'auth/user');
    expect(user.body.user.newsletter).toBe(!before);

    await open(b.page, '/users/profile/settings');
    expect(await toggle.isChecked()).toBe(!before);
    // Back with the keyboard: the switch keeps the focus while it saves.
    await toggle.focus();
    await b.page.keyboard.press('Space');
    await b.page.waitForFunction((want) => (document.querySelector('[data-testid=newsletter-toggle]') as HTMLInputElement).checked === want, before);
    await b.page.locator('[data-testid=snackbar]').waitFor();
    expect(await b.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('newsletter-toggle');
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('changes the password (wrong current password refused first)', async () => {
    const m = MESSAGES.en;
    b = await launchIn('en');
    const member = await newMember(b.page);
    await open(b.page, '/users/profile/settings');
    await b.page.fill('#pf-new-password', 'short');
    await b.page.fill('#pf-new-password2', 'short');
    await b.page.fill('#pf-password-current', PASSWORD);
    await b.page.click('form:has(#pf-new-password) button[type=submit]');
    expect((await b.page.textContent('#pf-new-password-error'))?.trim()).toBe(m.errors.password_too_short);

    await b.page.fill('#pf-new-password', 'brand-new-pass-1');
    await b.page.fill('#pf-new-password2', 'brand-new-pass-1');
    await b.page.fill('#pf-password-current', 'not-my-password');
    await b.page.click('form:has(#pf-new-password) button[type=submit]');
    await b.page.locator('#pf-password-current-error').waitFor();
    expect((await b.page.textContent('#pf-password-current-error'))?.trim()).toBe(m.errors.wrong_password);

    await b.page.fill('#pf-password-current', PASSWORD);
    const put = b.page.waitForResponse((r) => r.url().endsWith('/api/user/update') && r.request().method() === 'PUT');
    await b.page.click('form:has(#pf-new-password) button[type=submit]');
    expect((await put).status()).toBe(200);
    await b.page.locator('[data-testid=snackbar]').waitFor();
    expect((await b.page.textContent('[data-testid=snackbar] span'))?.trim()).toBe(m.profile.settings.password.done);
    // The pressed button kept the focus while the form was busy (a keyboard user keeps their place).
    expect(await b.page.evaluate(() => document.activeElement?.matches('form:has(#pf-new-password) button[type=submit]'))).toBe(true);
    await call(b.page, 'POST', 'auth/logout');
    expect((await call(b.page, 'POST', 'auth/login', { username: member.email, password: 'brand-new-pass-1' })).status).toBe(200);
  });

  it('changes the language preference and shows the page in it', async () => {
    b = await launchIn('en');
    await newMember(b.page);
    await open(b.page, '/users/profile/settings');
    const put = b.page.waitForResponse((r) => r.url().endsWith('/api/user/update') && r.request().method() === 'PUT');
    await b.page.selectOption('[data-testid=locale-select]', 'de');
    expect((await put).request().postDataJSON()).toEqual({ locale: 'de' });
    await b.page.waitForURL((u) => u.searchParams.get('lang') === 'de');
    await waitForIslands(b.page);
    expect(await b.page.getAttribute('html', 'lang')).toBe('de');
    expect((await b.page.textContent('#pf-lang-h'))?.trim()).toBe(MESSAGES.de.profile.settings.language.title);
    expect(await b.page.inputValue('[data-testid=locale-select]')).toBe('de');
    expect((await b.cookie('i18n_redirected'))?.value).toBe('de');
  });

  it('changes the e-mail address, which then needs confirming', async () => {
    b = await launchIn('de');
    await newMember(b.page);
    await open(b.page, '/users/profile/settings');
    const address = `pf-new-${Date.now().toString(36)}@example.org`;
    await b.page.fill('#pf-new-email', address);
    await b.page.fill('#pf-email-password', PASSWORD);
    await b.page.click('form:has(#pf-new-email) button[type=submit]');
    await b.page.locator('[data-testid=email-changed]').waitFor();
    expect((await b.page.textContent('[data-testid=email-changed]'))?.trim()).toBe(MESSAGES.de.profile.settings.email.done.replace('{{email}}', address));
    expect(await b.page.textContent('[data-testid=account-email]')).toContain(MESSAGES.de.profile.settings.account.unverified);
    const user = await call<{ user: { email: string; is_verified: boolean } }>(b.page, 'GET', 'auth/user');
    expect(user.body.user).toMatchObject({ email: address, is_verified: false });
  });

  it('deletes the account: logged out afterwards and the old credentials are refused (en)', async () => {
    const lang = 'en';
    const m = MESSAGES[lang];
    b = await launchIn(lang);
    const member = await newMember(b.page);
    await open(b.page, '/users/profile/settings');
    await b.page.click('[data-action=cancel-account]');
    await b.page.waitForURL((u) => u.pathname === '/users/cancel');
    await waitForIslands(b.page);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(m.profile.cancel.title);

    // A wrong password is refused and nothing happens.
    await b.page.fill('#cancel-password', 'wrong-password-1');
    await b.page.click('[data-action=cancel-submit]');
    await b.page.locator('.confirm[role=alertdialog]').waitFor();
    await b.page.click('.confirm .btn-primary');
    await b.page.locator('#cancel-password-error').waitFor();
    expect((await b.page.textContent('#cancel-password-error'))?.trim()).toBe(m.errors.wrong_password);

    // Cancelling the confirmation keeps the account.
    await b.page.fill('#cancel-password', PASSWORD);
    await b.page.click('[data-action=cancel-submit]');
    await b.page.locator('.confirm[role=alertdialog]').waitFor();
    expect((await b.page.textContent('#confirm-title'))?.trim()).toBe(m.profile.cancel.confirmTitle);
    await b.page.click('.confirm .btn-text');
    expect((await call(b.page, 'GET', 'auth/user')).status).toBe(200);

    await b.page.click('[data-action=cancel-submit]');
    await b.page.locator('.confirm[role=alertdialog]').waitFor();
    await b.page.click('.confirm .btn-primary');
    await b.page.waitForURL((u) => u.pathname === '/users/cancel_success');
    await waitForIslands(b.page);
    expect((await b.page.textContent('main h1'))?.trim()).toBe(m.profile.cancelSuccess.title);
    // Logged out: the top bar offers the login again and the API agrees.
    expect(await b.page.locator('.account-area [data-testid=coins]').count()).toBe(0);
    expect((await call(b.page, 'GET', 'auth/user')).status).toBe(401);
    const again = await call<{ message: string }>(b.page, 'POST', 'auth/login', { username: member.email, password: PASSWORD });
    expect(again.status).not.toBe(200);
    expect(['unknown_credentials', 'too_many_attempts']).toContain(again.body.message);
    expect((await call(b.page, 'GET', 'auth/user')).status).toBe(401);
    // The profile is closed to the old session.
    await b.page.goto(new URL('/users/profile', b.base).href);
    expect(new URL(b.page.url()).pathname).toBe('/login');
  });
});
