import { afterEach, describe, expect, it } from 'vitest';
import { baseUrl, type Browser, open } from './browser';
import { loginByPanel, logoutByMenu } from './accounts-helpers';
import { DEMO, launchIn, MESSAGES, text } from './members';

// Each flow runs in one language (they alternate; German is covered page by page in german.test.ts).
describe('login and logout', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it('the top bar login panel toggles, logs in by username, closes and keeps the page (en)', async () => {
    const m = MESSAGES.en;
    b = await launchIn('en');
    const page = b.page;
    await open(page, '/terms');
    const toggle = page.locator('[data-action=login-toggle]');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await toggle.click();
    await page.locator('#login-panel form[data-form=login]').waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await text(page, '#login-panel-title')).toBe(m.auth.login.title);
    // The username field has focus; labels and autocomplete are right.
    await page.waitForFunction(() => document.activeElement?.id === 'panel-username');
    expect(await page.getAttribute('#panel-username', 'autocomplete')).toBe('username');
    expect(await page.getAttribute('#panel-password', 'autocomplete')).toBe('current-password');
    expect(await text(page, 'label[for=panel-username]')).toBe(m.auth.login.username);

    // Toggle closes it, Escape too.
    await toggle.click();
    await page.locator('#login-panel').waitFor({ state: 'detached' });
    await toggle.click();
    await page.locator('#login-panel form').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('#login-panel').waitFor({ state: 'detached' });

    await loginByPanel(page, DEMO.username, DEMO.password);
    expect(page.url()).toBe(`${baseUrl()}/terms`);
    expect(await page.locator('#login-panel').count()).toBe(0);
    expect(await text(page, '[data-testid=member-name]')).toBe(DEMO.username);
    expect(Number(await text(page, '[data-testid=coins]'))).toBeGreaterThan(0);
    expect(await text(page, '[data-testid=snackbar]')).toContain(m.auth.login.welcome.replace('{{name}}', DEMO.username));
    // The members' menus (not loaded for the visitor this page was) arrive with the login.
    await page.locator('.app-bar [data-testid=messages-toggle]').waitFor();
    await page.locator('.app-bar [data-testid=favorites-toggle]').waitFor();

    // The login survives a reload (server-rendered member area).
    await open(page, '/terms');
    expect(await text(page, '[data-testid=member-name]')).toBe(DEMO.username);

    await logoutByMenu(page);
    expect(await page.locator('[data-testid=member-name]').count()).toBe(0);
    await open(page, '/');
    expect(await page.locator('[data-action=login-toggle]').count()).toBe(1);
    expect(b.unexpectedProblems()).toEqual([]);
  });

  it('logs in by e-mail on /login, which then redirects members home (de)', async () => {
    const m = MESSAGES.de;
    b = await launchIn('de');
    const page = b.page;
    await open(page, '/login');
    expect(await text(page, 'main h1')).toBe(m.auth.login.title);
    expect(await text(page, '.breadcrumbs [aria-current=page]')).toBe(m.auth.login.title);
    await page.fill('#page-login-username', DEMO.email);
    await page.fill('#page-login-password', DEMO.password);
    await page.click('form[data-form=login] button[type=submit]');
    await page.waitForURL(`${baseUrl()}/`);
    await page.locator('[data-testid=member-name]').waitFor();
    expect(await text(page, '[data-testid=member-name]')).toBe(DEMO.username);

    const res = await page.goto(`${baseUrl()}/login`);
    expect(res?.url()).toBe(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/users/signup`);
    expect(page.url()).toBe(`${baseUrl()}/`);
  });

  it('a wrong password shows the translated unknown-credentials error; empty fields are required (de)', async () => {
    const m = MESSAGES.de;
    b = await launchIn('de');
    const page = b.page;
    await open(page, '/sessions/new');
    await page.click('form[data-form=login] button[type=submit]');
    expect(await text(page, '[data-field=username] [role=alert]')).toBe(m.errors.required);
    await page.waitForFunction(() => document.activeElement?.id === 'page-login-username');

    await page.fill('#page-login-username', DEMO.username);
    await page.fill('#page-login-password', 'not-the-password');
    await page.press('#page-login-password', 'Enter');
    const alert = page.locator('[data-testid=login-error]');
    await alert.waitFor();
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await text(page, '[data-testid=login-error]')).toBe(m.errors.unknown_credentials);
    // The password is cleared and focused for the next try; still a visitor.
    expect(await page.inputValue('#page-login-password')).toBe('');
    await page.waitForFunction(() => document.activeElement?.id === 'page-login-password');
    expect(await page.locator('[data-testid=member-name]').count()).toBe(0);
  });

  it('the panel "forgot password" link switches to the reset request and back (en)', async () => {
    b = await launchIn('en');
    const page = b.page;
    await open(page, '/');
    await page.click('[data-action=login-toggle]');
    await page.fill('#panel-username', DEMO.username);
    await page.click('#login-panel [data-action=forgot]');
    await page.locator('#login-panel form[data-form=reset-request]').waitFor();
    expect(await page.inputValue('#panel-reset-login')).toBe(DEMO.username);
    await page.click('#login-panel [data-action=back-to-login]');
    await page.locator('#login-panel form[data-form=login]').waitFor();
  });
});

describe('login panel on a phone', () => {
  it('is a full-width sheet at 390 px (de)', async () => {
    const b = await launchIn('de', { viewport: { width: 390, height: 844 } });
    try {
      await open(b.page, '/');
      await b.page.click('[data-action=login-toggle]');
      // The panel's form loads with the first click: measure once it is there.
      await b.page.locator('#login-panel form[data-form=login]').waitFor();
      const box = await b.page.locator('#login-panel').boundingBox();
      expect(box?.x).toBe(0);
      expect(box?.width).toBe(390);
      expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await b.page.fill('#panel-username', DEMO.email);
      await b.page.fill('#panel-password', DEMO.password);
      await b.page.click('#login-panel button[type=submit]');
      await b.page.locator('[data-testid=member-toggle]').waitFor();
      expect(await b.page.locator('#login-panel').count()).toBe(0);
      // The welcome back, in German.
      expect(await text(b.page, '[data-testid=snackbar]')).toContain(MESSAGES.de.auth.login.welcome.replace('{{name}}', DEMO.username));
    } finally {
      await b.close();
    }
  });
});
