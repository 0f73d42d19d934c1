import type { Page } from 'playwright-core';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { base32Decode, totp } from '../../src/shared/totp';
import { baseUrl, call, launch, open, waitForIslands, type Browser, type LaunchOptions } from './browser';

// The one layer of the e2e suite above the browser: languages and their messages, unique names,
// a browser in a language, THE way to make a member for a test (newMember), THE way to read the
// development mailbox (mails), coins from the operator, the demo member.

export type Lang = 'en' | 'de';
export const MESSAGES = { en, de } as const;
export const DEMO = { username: 'demo', email: 'demo@example.com', password: 'demo-pass-2026' };
/** The password of every member a test makes (unless it asks for another). */
export const PASSWORD = 'member-pass-2026';
/** The e2e server's operator token (scripts/lib.mjs startServer). */
const OPS_TOKEN = 'e2e-ops-token';

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

/** Every key path of the messages ("a.b.c") and of the objects above them, plural suffixes dropped. */
function keyPaths(node: unknown, prefix = ''): string[] {
  if (node === null || typeof node !== 'object') return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return [...(prefix ? [prefix] : []), ...Object.entries(node).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k))];
}
const I18N_KEYS = new Set([...keyPaths(en), ...keyPaths(de)].filter((k) => k.includes('.')));

/**
 * What the page shows untranslated: message keys where a text should be (i18next shows the key of
 * a text it does not find), placeholders left unfilled ({{name}}) and objects shown as text. Reads
 * the visible text, the document title and the labels, titles, placeholders and alt texts.
 */
export async function untranslated(page: Page): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) parts.push(el.getAttribute(attr) ?? '');
    }
    return parts.join('\n');
  });
  const found = new Set<string>();
  for (const token of shown.match(/[A-Za-z][\w-]*(?:\.[\w-]+)+/g) ?? []) if (I18N_KEYS.has(token)) found.add(token);
  for (const left of shown.match(/\{\{\s*\w+\s*\}\}|returned an object instead of string/g) ?? []) found.add(left);
  return [...found];
}

/** The text of the first match, whitespace collapsed. */
export async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
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

/**
 * The mails to `to` in the development mailbox, newest first. With `wait`, waits up to that many
 * milliseconds until there is at least one (newer than the mail id `after`, of `kind`); throws
 * if none comes.
 */
export async function mails(to: string, { after = 0, kind, wait = 0 }: { after?: number; kind?: string; wait?: number } = {}): Promise<MailJson[]> {
  const deadline = Date.now() + wait;
  for (;;) {
    const res = await fetch(`${baseUrl()}/dev/mailbox.json?to=${encodeURIComponent(to)}`);
    if (res.status !== 200) throw new Error(`GET /dev/mailbox.json answered ${res.status}`);
    const found = ((await res.json()) as MailJson[]).filter((m) => m.id > after && (!kind || m.kind === kind));
    if (found.length || !wait) return found;
    if (Date.now() > deadline) throw new Error(`no mail${kind ? ` of kind ${kind}` : ''} to ${to} in the dev mailbox`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first link in a mail's text that contains `path`, made relative to the test server. */
export function mailLink(mail: MailJson, path: string): string {
  const m = mail.text.match(new RegExp(`https?://[^\\s]*${path.replace(/[?]/g, '\\?')}[^\\s]*`));
  if (!m) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  const url = new URL(m[0]);
  return `${url.pathname}${url.search}`;
}

/** Gives a member coins through the operator call (the e2e server's ops token). */
export async function grantCoins(userId: number, amount: number, ref = `e2e-${userId}-${uniq()}`): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/ops/users/${userId}/coins`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${OPS_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount, ref }),
  });
  if (res.status !== 200) throw new Error(`coins failed: ${res.status} ${await res.text()}`);
}

/**
 * Makes member `m` an operator (the deploy's token), who then sets up the second factor in the
 * page `page` is logged in on as a person does: /operator/second-factor, "Show my key", the app's
 * code (made here from the key the page shows), and lands on `to`. Answers the key.
 */
export async function becomeOperator(page: Page, m: { id: number }, to = '/operator'): Promise<Uint8Array<ArrayBuffer>> {
  const res = await fetch(`${baseUrl()}/api/ops/operators`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${OPS_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ user_id: m.id }),
  });
  if (res.status !== 201) throw new Error(`appointing failed: ${res.status} ${await res.text()}`);
  // The operator page sends an operator without the second factor to it, and back after.
  await open(page, to);
  await page.locator('[data-testid=second-factor][data-step=start]').waitFor();
  await page.click('[data-action=second-factor-enrol]');
  const secret = base32Decode((await page.locator('[data-testid=second-factor-secret]').getAttribute('data-secret')) ?? '')!;
  await page.fill('#second-factor-code', await totp(secret, Math.floor(Date.now() / 1000)));
  await Promise.all([page.waitForURL((u) => u.pathname === to.split('?')[0]), page.click('[data-testid=second-factor] button[type=submit]')]);
  // The page it returns to is a new load: a click before its islands hydrate would be lost.
  await waitForIslands(page);
  return secret;
}

export interface Member {
  id: number;
  /** The account name (the username when one was given, else the one the server made). */
  name: string;
  email: string;
  password: string;
  /** The current nickname (null without one). */
  nick: string | null;
}

export interface MemberOptions {
  /** Confirms the address with the mailed token (default true). */
  verified?: boolean;
  /** false (default): the welcome dialog counts as shown; true: it is still due. */
  welcome?: boolean;
  /** Coins given by the operator call (default 0). */
  coins?: number;
  /** Passes the age check with the sandbox provider (default false). */
  ageChecked?: boolean;
  /** true: a generated nickname; a string: that nickname (default: none). */
  nickname?: boolean | string;
  /** The account name (default: the server makes one). */
  username?: string;
  /** The address (default: `<prefix>-<unique>@example.org`). */
  email?: string;
  prefix?: string;
  password?: string;
}

/**
 * THE way a test gets a member: signs up a fresh one through the API with the page's context
 * (logged in there afterwards; no page needs to be loaded) and sets it up as asked.
 */
export async function newMember(page: Page, opts: MemberOptions = {}): Promise<Member> {
  const { verified = true, welcome = false, coins = 0, ageChecked = false, nickname = false, prefix = 'm', password = PASSWORD } = opts;
  const email = opts.email ?? `${prefix}-${uniq()}@example.org`;
  // A page already open may still be sending its start-up writes (a visitor's page posts the
  // welcome countdown's start); the sign-up rotates the CSRF token under such a post, which then
  // answers 419 (sent again by the page, but logged by the browser): let them finish first.
  if (page.url() !== 'about:blank') await page.waitForLoadState('networkidle');
  const reg = await call<{ user: { id: number; name: string } }>(page, 'POST', 'register', { email, password, terms_check: true, ...(opts.username ? { username: opts.username } : {}) });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const member: Member = { id: reg.body.user.id, name: reg.body.user.name, email, password, nick: null };
  if (verified) {
    const [mail] = await mails(email, { kind: 'verify', wait: 10_000 });
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error(`no verification link for ${email}:\n${mail.text}`);
    const ok = await call(page, 'POST', 'register/validate', { token });
    if (ok.status !== 200) throw new Error(`validate failed: ${ok.status} ${JSON.stringify(ok.body)}`);
  }
  if (!welcome) await call(page, 'POST', 'session/welcome_shown');
  if (coins > 0) await grantCoins(member.id, coins);
  if (ageChecked) {
    // The age check through the sandbox provider, by its links (no page rendered in the browser).
    const request = page.context().request;
    const sandbox = await request.get(`${baseUrl()}/avs?kjm=1&target=%2Ffaq`);
    const pass = /data-action="avs-pass"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-action="avs-pass"/.exec(await sandbox.text());
    const href = (pass?.[1] ?? pass?.[2] ?? '').replace(/&amp;/g, '&');
    if (!href) throw new Error('no sandbox pass link');
    await request.get(new URL(href, baseUrl()).href);
  }
  if (nickname) {
    const nick = typeof nickname === 'string' ? nickname : `n${uniq()}`.slice(0, 15);
    const res = await call(page, 'POST', 'user/nickname/add', { nickname: nick });
    if (res.status !== 200 && res.status !== 201) throw new Error(`nickname failed: ${res.status} ${JSON.stringify(res.body)}`);
    member.nick = nick;
  }
  return member;
}

/** Logs in as the demo member (no page needs to be loaded) and skips the welcome dialog. */
export async function loginDemo(page: Page): Promise<void> {
  const res = await call(page, 'POST', 'auth/login', { username: DEMO.username, password: DEMO.password });
  if (res.status !== 200) throw new Error(`demo login failed: ${res.status} ${JSON.stringify(res.body)}`);
  await call(page, 'POST', 'session/welcome_shown');
}

/** The embedded/live store is not reachable from tests; the server's view of the session is. */
export async function sessionNow(page: Page) {
  return (await call<{ session: { session_id: string | null; agechecked: boolean; visitor_id: string | null; welcome_dialog: unknown } }>(page, 'GET', 'session/init')).body.session;
}

/** Fills the performer application on the open /apply page (two small PNGs as the documents) and sends it. */
export async function sendApplication(page: Page, fields: { legalName: string; dateOfBirth: string; stageName: string }): Promise<void> {
  const form = page.locator('[data-testid=apply-form]');
  await form.waitFor();
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: 120, height: 80 } });
  await form.locator('input[name=legal_name]').fill(fields.legalName);
  await form.locator('input[name=date_of_birth]').fill(fields.dateOfBirth);
  await form.locator('select[name=country]').selectOption('DE');
  await form.locator('input[name=stage_name]').fill(fields.stageName);
  await form.locator('input[name=id_document]').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: png });
  await form.locator('input[name=selfie]').setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: png });
  await form.locator('input[name=consent]').check();
  await form.locator('button[type=submit]').click();
  await page.locator('[data-testid=apply-sent]').waitFor();
}
