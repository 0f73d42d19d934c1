import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { launch, lobbyConnected, open, type Browser } from './browser';

// Live lobby end to end: an operator switches a show, open pages follow without a reload.

async function flip(base: string, id: number, online: boolean): Promise<void> {
  const res = await fetch(`${base}/api/ops/shows/${id}/status`, {
    method: 'POST',
    headers: { Authorization: 'Bearer e2e-ops-token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ online }),
  });
  expect(res.status).toBe(200);
}

/** Marks the document; a reload or a navigation to another document would lose the mark. */
async function mark(page: Page): Promise<() => Promise<boolean>> {
  const url = page.url();
  const documents: string[] = [];
  page.on('request', (r) => r.isNavigationRequest() && r.frame() === page.mainFrame() && documents.push(r.url()));
  await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
  return async () =>
    documents.length === 0 && page.url() === url && (await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true));
}

const tileOnline = (page: Page, id: number, online: boolean, timeout: number) =>
  page.waitForFunction(
    ([id, online]) => document.querySelector(`.show-tile[data-show-id="${id}"]`)?.getAttribute('data-online') === (online ? '1' : '0'),
    [id, online] as const,
    { timeout, polling: 20 },
  );
const pageOnline = (page: Page, online: boolean, timeout: number) =>
  page.waitForFunction((online) => document.querySelector('[data-testid=show-status]')?.getAttribute('data-online') === (online ? '1' : '0'), online, {
    timeout,
    polling: 20,
  });

describe('live updates', () => {
  let b: Browser;
  let home: Page;
  let show: Page;
  let id = 0;
  let free = false;

  beforeAll(async () => {
    b = await launch({ cookies: { splash: true, consent: true }, viewport: { width: 1280, height: 900 } });
    home = b.page;
    await open(home, '/');
    // The first live show with free chat (so the free chat button is seen to come and go).
    const first = await home.$$eval('.show-grid .show-tile.online', (els) =>
      els.map((el) => ({ id: Number(el.getAttribute('data-show-id')), free: !!el.querySelector('.free-badge'), href: el.querySelector('a')!.getAttribute('href')! })),
    );
    const pick = first.find((s) => s.free) ?? first[0];
    id = pick.id;
    free = pick.free;
    show = await b.newPage();
    await open(show, pick.href);
    await Promise.all([lobbyConnected(home), lobbyConnected(show)]);
  });
  afterAll(async () => {
    if (id) await flip(b.base, id, true).catch(() => undefined);
    await b?.close();
  });

  it('an operator switching a show offline and back updates home and the show page within 1 s, without a reload', async () => {
    const sameHome = await mark(home);
    const sameShow = await mark(show);
    expect(await show.locator('[data-chat=free]').count()).toBe(free ? 1 : 0);

    // Within 1 s of the operator call (its answer: the show is switched and published).
    await flip(b.base, id, false);
    let start = Date.now();
    await Promise.all([tileOnline(home, id, false, 1000), pageOnline(show, false, 1000)]);
    expect(Date.now() - start).toBeLessThan(1000);
    expect(await home.textContent(`.show-tile[data-show-id="${id}"] .status`)).toBe(en.shows.offline);
    expect(await show.textContent('[data-testid=show-status]')).toBe(en.shows.offline);
    expect(await show.locator('[data-chat=free]').count()).toBe(0);
    expect(await show.locator('.chat-btn.btn-primary').isDisabled()).toBe(true);

    await flip(b.base, id, true);
    start = Date.now();
    await Promise.all([tileOnline(home, id, true, 1000), pageOnline(show, true, 1000)]);
    expect(Date.now() - start).toBeLessThan(1000);
    expect(await show.locator('[data-chat=free]').count()).toBe(free ? 1 : 0);
    expect(await home.getAttribute(`.show-tile[data-show-id="${id}"]`, 'class')).toBe('show-tile online');

    expect(await sameHome()).toBe(true);
    expect(await sameShow()).toBe(true);
    expect(b.unexpectedProblems(home)).toEqual([]);
    expect(b.unexpectedProblems(show)).toEqual([]);
  });

  it('after a lost connection the page catches up with what changed meanwhile', async () => {
    // Independent of the test before: the show starts online.
    await flip(b.base, id, true);
    await Promise.all([tileOnline(home, id, true, 5000), pageOnline(show, true, 5000)]);
    const sameHome = await mark(home);
    const refetch = home.waitForResponse((r) => r.url().endsWith('/api/shows/online'));
    await home.evaluate(() => (window as { __lobby?: { disconnect(): void } }).__lobby?.disconnect());
    await home.waitForFunction(() => (window as { __lobby?: { connected: boolean } }).__lobby?.connected === false);

    await flip(b.base, id, false);
    // The show page (still connected) follows; home (disconnected) cannot know yet.
    await pageOnline(show, false, 1000);
    await home.waitForTimeout(600);
    expect(await home.getAttribute(`.show-tile[data-show-id="${id}"]`, 'data-online')).toBe('1');

    await home.evaluate(() => (window as { __lobby?: { reconnect(): void } }).__lobby?.reconnect());
    expect((await refetch).status()).toBe(200);
    await tileOnline(home, id, false, 5000);
    await lobbyConnected(home);

    // And it keeps following live updates after the reconnect.
    await flip(b.base, id, true);
    await tileOnline(home, id, true, 1000);
    expect(await sameHome()).toBe(true);
    expect(b.unexpectedProblems(home)).toEqual([]);
  });
});
