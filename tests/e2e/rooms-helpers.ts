import { chromium, type Browser as PwBrowser, type Page } from 'playwright-core';
import type { ShowDetail, ShowSummary } from '../../src/shared/shows';
import { baseUrl, CHROMIUM, open, waitForIslands } from './browser';
import { MESSAGES, PASSWORD, uniq, type Lang, type MailJson } from './members';

// Live rooms in the browser: one Chromium per file with a context per person (performer, guest,
// members), demo performers (login = the show's slug), members with coins, age check and nickname.

export const PERFORMER_PASSWORD = 'studio-demo-1';
export type Device = 'desktop' | 'phone';
const VIEWPORT = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

/** Chromium's fake camera and microphone, granted without a prompt (live video tests). */
export const FAKE_MEDIA = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'];

export function roomsBrowser(extraArgs: string[] = []): Promise<PwBrowser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', ...extraArgs] });
}

/** A fresh person (own cookies) in a language and on a device, age splash and consent answered. */
export async function person(browser: PwBrowser, lang: Lang, device: Device): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT[device], locale: lang === 'de' ? 'de-DE' : 'en-GB' });
  context.setDefaultNavigationTimeout(60_000);
  context.setDefaultTimeout(20_000);
  const url = baseUrl();
  await context.addCookies([
    { name: 'splash18', value: '1', url },
    { name: 'consent_analytics', value: '1', url },
    { name: 'i18n_redirected', value: lang, url },
  ]);
  return context.newPage();
}

export const msg = (lang: Lang) => MESSAGES[lang];

/** Shows of the home page's first list page, with details, that match. */
export async function homeShows(match: (s: ShowDetail) => boolean): Promise<ShowDetail[]> {
  const list = (await (await fetch(`${baseUrl()}/api/shows`)).json()) as { data: ShowSummary[] };
  const out: ShowDetail[] = [];
  // From the end of the page: the first tiles are what other suites look at.
  const details = await Promise.all([...list.data].reverse().map(async (s) => (await (await fetch(`${baseUrl()}/api/shows/${s.id}`)).json()) as ShowDetail));
  for (const d of details) if (match(d)) out.push(d);
  return out;
}

/**
 * The shows with ids in [from, to] that match, online or not: a suite that brings its own
 * performer online picks from a fixed range, so shows that earlier suites left offline (a closed
 * studio goes offline after the grace) neither shrink nor reorder its list.
 */
export async function showsByIds(from: number, to: number, match: (s: ShowDetail) => boolean): Promise<ShowDetail[]> {
  const ids = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const details = await Promise.all(ids.map(async (id) => (await (await fetch(`${baseUrl()}/api/shows/${id}`)).json()) as ShowDetail));
  return details.filter(match);
}

export const showPath = (s: ShowDetail) => `/chat/${s.id}/${s.slugName}`;

/**
 * A JSON call with the page's cookies but without loading a page (the context's request API):
 * the CSRF cookie first, then the header, like the client API layer.
 */
export async function ctxCall<T = Record<string, unknown>>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown, retried = false): Promise<{ status: number; body: T }> {
  const ctx = page.context();
  const token = async () => (await ctx.cookies(baseUrl())).find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!(await token())) await ctx.request.get(`${baseUrl()}/api/auth/csrf-cookie`);
  const send = async () =>
    ctx.request.fetch(`${baseUrl()}/api/${path}`, {
      method,
      headers: { Accept: 'application/json', 'X-XSRF-TOKEN': decodeURIComponent((await token()) ?? '') },
      data: body,
    });
  // wrangler dev's proxy now and then resets a connection (ECONNRESET, twice in many runs): a GET
  // changes nothing, so it is sent once more; a POST is not (it may have been taken).
  const res = await send().catch((error: unknown) => {
    if (method === 'GET' && !retried && /ECONNRESET/.test(String(error))) return send();
    throw error;
  });
  const text = await res.text();
  // wrangler dev answers 503 when it restarted the worker mid-request (and asks to send it again).
  if (res.status() === 503 && /restarted mid-request/.test(text) && !retried) return ctxCall(page, method, path, body, true);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // plain text
  }
  return { status: res.status(), body: parsed as T };
}

/** Logs in as the show's demo performer and opens the studio. */
export async function performerStudio(page: Page, show: ShowDetail, { online }: { online?: boolean } = {}): Promise<void> {
  const call = ctxCall;
  const res = await call(page, 'POST', 'auth/login', { username: show.slugName, password: PERFORMER_PASSWORD });
  if (res.status !== 200) throw new Error(`performer login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const open_ = { free: true, private: true, exclusive: true, voyeur: true };
  const st = await call(page, 'POST', 'studio/status', online === undefined ? { open: open_, paused: false } : { online, open: open_, paused: false });
  if (st.status !== 200) throw new Error(`studio status failed: ${st.status} ${JSON.stringify(st.body)}`);
  await open(page, '/studio');
  await page.locator('[data-testid=studio][data-connected="1"]').waitFor();
}

async function addCoins(userId: number, amount: number): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/ops/users/${userId}/coins`, {
    method: 'POST',
    headers: { Authorization: 'Bearer e2e-ops-token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount, ref: `rooms-e2e-${userId}-${uniq()}` }),
  });
  if (res.status !== 200) throw new Error(`coins failed: ${res.status} ${await res.text()}`);
}

/** A verified member who passed the age check, with `coins`, and (unless nickname: false) a nickname. */
export async function chatMember(page: Page, coins: number, { nickname = true } = {}): Promise<{ id: number; nick: string | null; email: string }> {
  const call = ctxCall;
  const ctx = page.context();
  const email = `r-${uniq()}@example.org`;
  const reg = await call<{ user: { id: number } }>(page, 'POST', 'register', { email, password: PASSWORD, terms_check: true });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const mails = (await (await ctx.request.get(`${baseUrl()}/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as MailJson[];
  const token = /token=([A-Za-z0-9_-]+)/.exec(mails[0]?.text ?? '')?.[1];
  if (!token) throw new Error(`no verification mail for ${email}`);
  const ok = await call(page, 'POST', 'register/validate', { token });
  if (ok.status !== 200) throw new Error(`validate failed: ${ok.status}`);
  await call(page, 'POST', 'session/welcome_shown');
  const id = reg.body.user.id;
  if (coins > 0) await addCoins(id, coins);
  // The age check through the sandbox provider, by its links (no page rendered in the browser).
  const sandbox = await ctx.request.get(`${baseUrl()}/avs?kjm=1&target=%2Ffaq`);
  const pass = /data-action="avs-pass"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-action="avs-pass"/.exec(await sandbox.text());
  const href = (pass?.[1] ?? pass?.[2] ?? '').replace(/&amp;/g, '&');
  if (!href) throw new Error('no sandbox pass link');
  await ctx.request.get(new URL(href, baseUrl()).href);
  let nick: string | null = null;
  if (nickname) {
    nick = `n${uniq()}`.slice(0, 15);
    const res = await call(page, 'POST', 'user/nickname/add', { nickname: nick });
    if (res.status !== 200 && res.status !== 201) throw new Error(`nickname failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { id, nick, email };
}

/** Opens the show page and starts a chat of `type` (the nickname dialog answered with `nick` if it comes). */
export async function startChat(page: Page, show: ShowDetail, type: 'free' | 'private' | 'exclusive' | 'voyeur', nick?: string): Promise<void> {
  if (!page.url().includes(`/chat/${show.id}/`)) await open(page, showPath(show));
  await waitForIslands(page);
  await page.click(`[data-chat=${type}]`);
  if (nick) {
    const input = page.locator('.nickname-dialog input[name=nickname]');
    await input.fill(nick);
    await input.press('Enter');
  }
}

export const overlay = (page: Page) => page.locator('[data-testid=chat-overlay]');

/** The member's coins as the chat bar shows them. */
export async function barCoins(page: Page): Promise<number> {
  return Number(await page.locator('[data-testid=chat-coins]').getAttribute('data-coins'));
}
