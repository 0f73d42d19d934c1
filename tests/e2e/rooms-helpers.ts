import { chromium, type Browser as PwBrowser, type Page } from 'playwright-core';
import type { ShowDetail, ShowSummary } from '../../src/shared/shows';
import { baseUrl, call, CHROMIUM, open, waitForIslands } from './browser';
import { MESSAGES, registerMember, uniq, type Lang } from './members';

// Live rooms in the browser: one Chromium per file with a context per person (performer, guest,
// members), demo performers (login = the show's slug), members with coins, age check and nickname.

export const PERFORMER_PASSWORD = 'studio-demo-1';
export type Device = 'desktop' | 'phone';
const VIEWPORT = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

export function roomsBrowser(): Promise<PwBrowser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'] });
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
  for (const s of [...list.data].reverse()) {
    const d = (await (await fetch(`${baseUrl()}/api/shows/${s.id}`)).json()) as ShowDetail;
    if (match(d)) out.push(d);
  }
  return out;
}

export const showPath = (s: ShowDetail) => `/chat/${s.id}/${s.slugName}`;

/** Logs in as the show's demo performer and opens the studio. */
export async function performerStudio(page: Page, show: ShowDetail, { online }: { online?: boolean } = {}): Promise<void> {
  await open(page, '/faq');
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
export async function chatMember(page: Page, coins: number, { nickname = true } = {}): Promise<{ id: number; nick: string | null }> {
  const m = await registerMember(page, { prefix: 'r' });
  if (coins > 0) await addCoins(m.id, coins);
  await open(page, '/avs?kjm=1&target=%2Ffaq', { hydrate: false });
  await page.click('[data-action=avs-pass]');
  await page.waitForURL((u) => u.pathname === '/faq');
  let nick: string | null = null;
  if (nickname) {
    nick = `n${uniq()}`.slice(0, 15);
    const res = await call(page, 'POST', 'user/nickname/add', { nickname: nick });
    if (res.status !== 200 && res.status !== 201) throw new Error(`nickname failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { id: m.id, nick };
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
