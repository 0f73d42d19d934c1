import type { Page } from 'playwright-core';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { call, launch, open, type Browser, type LaunchOptions } from './browser';

// The one layer of the e2e suite above the browser: languages and their messages, unique names,
// a browser in a language, fresh members made through the API from the page, the demo member.

export type Lang = 'en' | 'de';
export const MESSAGES = { en, de } as const;
export const LANGS: Lang[] = ['en', 'de'];
export const DEMO = { username: 'demo', email: 'demo@example.com', password: 'demo-pass-2026' };
/** The password of every member a test signs up. */
export const PASSWORD = 'member-pass-2026';

let seq = 0;
/** Letters and digits only, short enough for nicknames (3–15 characters with a prefix). */
export function uniq(): string {
  seq++;
  return `${Date.now().toString(36).slice(-5)}${seq.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** A browser with the age splash and the consent answered, in the given language. */
export async function launchIn(lang: Lang, opts: LaunchOptions = {}): Promise<Browser> {
  const b = await launch({ ...opts, cookies: { splash: true, consent: true, lang, ...opts.cookies } });
  // The machine is shared with other runs: page loads get more time than the 30 s default.
  b.context.setDefaultNavigationTimeout(60_000);
  return b;
}

/** The text of the first match, whitespace collapsed. */
export async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

export interface Member {
  email: string;
  name: string;
  id: number;
}

export interface MailJson {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  created_at: number;
}

/** The mails to `address` in the development mailbox, newest first. */
export async function mailsTo(page: Page, address: string): Promise<MailJson[]> {
  return page.evaluate(async (to) => (await fetch(`/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json(), address) as Promise<MailJson[]>;
}

/**
 * A page to call the API from, once its own writes are done: a visitor's page posts the welcome
 * countdown's start, and a sign-up or login that rotates the CSRF token while that post is on its
 * way makes it answer 419 (retried by the page, but logged as a console error).
 */
async function openSettled(page: Page): Promise<void> {
  await open(page, '/faq');
  await page.waitForLoadState('networkidle');
}

/**
 * Signs up a fresh member from the page (logged in afterwards). verified: also confirms the
 * address with the mailed token; welcome: false records the welcome dialog as shown.
 */
export async function registerMember(page: Page, { verified = true, welcome = false, prefix = 'm' } = {}): Promise<Member> {
  if (page.url() === 'about:blank') await openSettled(page);
  const email = `${prefix}-${uniq()}@example.org`;
  const reg = await call<{ user: { id: number; name: string } }>(page, 'POST', 'register', { email, password: PASSWORD, terms_check: true });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  if (verified) {
    const [mail] = await mailsTo(page, email);
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error(`no verification mail for ${email}`);
    const ok = await call(page, 'POST', 'register/validate', { token });
    if (ok.status !== 200) throw new Error(`validate failed: ${ok.status} ${JSON.stringify(ok.body)}`);
  }
  if (!welcome) await call(page, 'POST', 'session/welcome_shown');
  return { email, name: reg.body.user.name, id: reg.body.user.id };
}

/** Logs in as the demo member from the page and skips the welcome dialog. */
export async function loginDemo(page: Page): Promise<void> {
  if (page.url() === 'about:blank') await openSettled(page);
  const res = await call(page, 'POST', 'auth/login', { username: DEMO.username, password: DEMO.password });
  if (res.status !== 200) throw new Error(`demo login failed: ${res.status} ${JSON.stringify(res.body)}`);
  await call(page, 'POST', 'session/welcome_shown');
}

/** The embedded/live store is not reachable from tests; the server's view of the session is. */
export async function sessionNow(page: Page) {
  return (await call<{ session: { session_id: string | null; agechecked: boolean; visitor_id: string | null; welcome_dialog: unknown } }>(page, 'GET', 'session/init')).body.session;
}
