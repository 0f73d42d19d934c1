import type { Page } from 'playwright-core';
import { baseUrl } from './browser';

// Helpers of the account tests: the top bar's login panel and member menu.

/**
 * Waits until the page's own start-up writes are answered (a visitor's page posts the welcome
 * countdown's start). A login or sign-up sent while that post is on its way rotates the CSRF token
 * under it: it answers 419 (the page sends it again, but the browser logs the refusal, and the
 * tests allow no console error). Seen on a machine at load average 19.
 */
export async function startupWritesDone(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}

/** Opens the top bar login panel and logs in; waits for the member area. */
export async function loginByPanel(page: Page, login: string, password: string): Promise<void> {
  await page.click('[data-action=login-toggle]');
  await page.locator('#login-panel form[data-form=login]').waitFor();
  await page.fill('#panel-username', login);
  await page.fill('#panel-password', password);
  await startupWritesDone(page);
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
