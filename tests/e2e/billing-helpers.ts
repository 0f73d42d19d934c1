import type { BrowserContext, Page } from 'playwright-core';
import { open } from './browser';
import { text } from './members';

// Helpers of the billing tests: the picker, the payment popup, and the top bar's balance.

/** The balance shown in the top bar. */
export async function topBarCoins(page: Page): Promise<number> {
  return Number(await text(page, '.app-bar [data-testid=coins]'));
}

/** Clicks the buy button and returns the payment popup (opened by window.open). */
export async function openPopup(context: BrowserContext, page: Page, selector = '[data-action=billing-buy]'): Promise<Page> {
  const [popup] = await Promise.all([context.waitForEvent('page'), page.click(selector)]);
  return popup;
}

/** Waits until a page is closed (it may be closed already). */
export async function waitClosed(page: Page, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!page.isClosed()) {
    if (Date.now() > deadline) throw new Error(`page ${page.url()} still open after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens /billing (or another billing path) and waits for the loaded picker. */
export async function openPicker(page: Page, path = '/billing'): Promise<void> {
  await open(page, path);
  await page.locator('[data-testid=billing-picker]').waitFor();
}
