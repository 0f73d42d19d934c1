import { chromium, type Browser as PwBrowser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import type { ShowDetail, ShowSummary } from '../../src/shared/shows';
import { baseUrl, call, open, waitForIslands, watch } from './browser';
import { MESSAGES, type Lang } from './members';

// Live rooms in the browser: a connection to the run's Chromium per file with a context per
// person (performer, guest, members), demo performers (login = the show's slug). Members for the
// rooms come from newMember (members.ts) with coins, the age check and a nickname.

export const PERFORMER_PASSWORD = 'studio-demo-1';
export type Device = 'desktop' | 'phone';
const VIEWPORT = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

/**
 * A connection of the file's own to the run's Chromium (global setup); `media`: the one with the
 * fake camera and microphone, granted without a prompt, and autoplay without a gesture. Closing it
 * closes the contexts made through it.
 */
export function roomsBrowser(kind: 'plain' | 'media' = 'plain'): Promise<PwBrowser> {
  return chromium.connect(inject('browsers')[kind]);
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
  context.on('page', watch);
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

/** Logs in as the show's demo performer and opens the studio. */
export async function performerStudio(page: Page, show: ShowDetail, { online }: { online?: boolean } = {}): Promise<void> {
  const res = await call(page, 'POST', 'auth/login', { username: show.slugName, password: PERFORMER_PASSWORD });
  if (res.status !== 200) throw new Error(`performer login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const open_ = { free: true, private: true, exclusive: true, voyeur: true };
  const st = await call(page, 'POST', 'studio/status', online === undefined ? { open: open_, paused: false } : { online, open: open_, paused: false });
  if (st.status !== 200) throw new Error(`studio status failed: ${st.status} ${JSON.stringify(st.body)}`);
  await open(page, '/studio');
  await page.locator('[data-testid=studio][data-connected="1"]').waitFor();
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
