import type { BrowserContext, Page } from 'playwright-core';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { call, launch, open, type Browser, type LaunchOptions } from './browser';

export { call, type CallResult } from './browser';

// Helpers of the billing tests: fresh members made through the API from the page (sign-up, the
// verification mail from /dev/mailbox.json, validate), the popup, and a few readers.

export type Lang = 'en' | 'de';
export const MESSAGES = { en, de } as const;
export const PASSWORD = 'billing-pass-2026';

let seq = 0;
export function uniq(): string {
  seq++;
  return `${Date.now().toString(36)}${seq.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

export async function launchIn(lang: Lang, opts: LaunchOptions = {}): Promise<Browser> {
  const b = await launch({ ...opts, cookies: { splash: true, consent: true, lang, ...opts.cookies } });
  // The machine is shared with other runs: page loads get more time than the 30 s default.
  b.context.setDefaultNavigationTimeout(60_000);
  return b;
}

export interface Member {
  email: string;
  name: string;
  id: number;
}

/** Signs up, verifies and logs in a fresh member in the page's browser context. */
export async function registerMember(page: Page): Promise<Member> {
  if (page.url() === 'about:blank') await open(page, '/faq');
  const email = `bill-${uniq()}@example.org`;
  const reg = await call<{ user: { id: number; name: string } }>(page, 'POST', 'register', { email, password: PASSWORD, terms_check: true });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const mails = (await page.evaluate(async (to) => (await fetch(`/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json(), email)) as { text: string }[];
  const token = /token=([A-Za-z0-9_-]+)/.exec(mails[0]?.text ?? '')?.[1];
  if (!token) throw new Error(`no verification mail for ${email}`);
  const ok = await call(page, 'POST', 'register/validate', { token });
  if (ok.status !== 200) throw new Error(`validate failed: ${ok.status} ${JSON.stringify(ok.body)}`);
  await call(page, 'POST', 'session/welcome_shown');
  return { email, name: reg.body.user.name, id: reg.body.user.id };
}

export async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

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

export { open };
