import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, open } from './browser';


export interface StoredMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: number;
}

/** The newest mail to `to` (from the development mailbox), waiting up to 10 s for it. */
export async function latestMail(to: string, after = 0): Promise<StoredMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${baseUrl()}/dev/mailbox.json?to=${encodeURIComponent(to)}`);
    expect(res.status, 'GET /dev/mailbox.json').toBe(200);
    const mails = ((await res.json()) as StoredMail[]).filter((m) => m.to.toLowerCase() === to.toLowerCase() && m.id > after);
    if (mails.length) return mails[0];
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in the dev mailbox`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first link in a mail's text that contains `path`, made relative to the test server. */
export function mailLink(mail: StoredMail, path: string): string {
  const m = mail.text.match(new RegExp(`https?://[^\\s]*${path.replace(/[?]/g, '\\?')}[^\\s]*`));
  if (!m) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  const url = new URL(m[0]);
  return `${url.pathname}${url.search}`;
}

/** Opens the top bar login panel and logs in; waits for the member area. */
export async function loginByPanel(page: Page, login: string, password: string): Promise<void> {
  await page.click('[data-action=login-toggle]');
  await page.locator('#login-panel form[data-form=login]').waitFor();
  await page.fill('#panel-username', login);
  await page.fill('#panel-password', password);
  await page.press('#panel-password', 'Enter');
  await page.locator('[data-testid=member-name]').waitFor();
}

const welcomeHandled = new WeakSet<Page>();

/**
 * Closes the members' welcome dialog (another feature's overlay, which may open at any moment
 * after a login, once its code and the offer have loaded) whenever it stands in the way of an
 * action on this page. Playwright runs the handler before an action whenever the dialog is
 * visible, so no check-then-act race is left to lose.
 */
async function closeWelcomeWhenItAppears(page: Page): Promise<void> {
  if (welcomeHandled.has(page)) return;
  welcomeHandled.add(page);
  await page.addLocatorHandler(page.locator('[data-testid=welcome-dialog]'), async (dialog) => {
    await dialog.locator('[data-action=welcome-close]').click();
  });
}

/** Clicks, first closing the members' welcome dialog if it is in the way. */
export async function clickThrough(page: Page, selector: string): Promise<void> {
  await closeWelcomeWhenItAppears(page);
  await page.click(selector);
}

/** Logs out through the member menu (-> /logout -> home). */
export async function logoutByMenu(page: Page, base = baseUrl()): Promise<void> {
  await closeWelcomeWhenItAppears(page);
  const menu = page.locator('[data-testid=member-menu]');
  // Logging out loads home anew (also from home itself, where the URL alone proves nothing): wait
  // for that load, or the caller's next navigation races it and is aborted.
  const navigated = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 30_000 });
  // Closing the dialog between opening the menu and clicking in it closes the menu: open again.
  for (let i = 0; ; i++) {
    if (!(await menu.isVisible())) await page.click('[data-testid=member-toggle]');
    try {
      await menu.locator('a[data-action=logout]').click({ timeout: 3_000 });
      break;
    } catch (error) {
      if (i >= 2) throw error;
    }
  }
  await navigated;
  await page.waitForLoadState('load');
  await page.waitForURL(`${base}/`);
  await page.locator('[data-action=login-toggle]').waitFor();
}

/** Registers through the sign-up page; ends on the success page (logged in). */
export async function signUp(page: Page, user: { email: string; username: string; password: string; code?: string }): Promise<void> {
  await open(page, '/users/signup');
  await page.fill('#signup-reg-email', user.email);
  if (user.code) await page.fill('#signup-reg-code', user.code);
  await page.fill('#signup-reg-password', user.password);
  await page.fill('#signup-reg-username', user.username);
  await page.check('#signup-reg-terms');
  await page.click('form[data-form=register] button[type=submit]');
  await page.waitForURL(`${baseUrl()}/users/signup_success`);
}

export { open };
