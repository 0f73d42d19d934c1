import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { version } from '../../package.json';
import { launch, open, type Browser } from './browser';

const NEW_BUILD = '9.9.9';

/** Lets the page run a few tasks (MessageChannel is not faked by the clock). */
async function settle(page: Page, rounds = 10) {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) {
      await new Promise<void>((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve();
        ch.port2.postMessage(0);
      });
    }
  }, rounds);
}

describe('update notice', () => {
  let b: Browser | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  /**
   * Opens home with a faked clock and /version answered by `answer`; waits until the overlays'
   * effects (the version watch among them) ran: the age splash focuses its button from the same
   * commit. Then confirms the splash so the page is usable.
   */
  async function start(answer: () => string) {
    b = await launch({ cookies: { consent: true } });
    const page = b.page;
    const polls: string[] = [];
    await page.route('**/version', async (route) => {
      polls.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: answer(), headers: { 'Cache-Control': 'no-store' } });
    });
    // API answers carry the build too (X-Build), and the client takes it from them. The "deploy"
    // happens with the first poll: from then on they report what /version does. Otherwise an
    // answer arriving late (the splash confirmation, the first-click fingerprint) would report
    // the old build again and cancel the notice.
    await page.route('**/api/**', async (route) => {
      const response = await route.fetch();
      const headers = response.headers();
      await route.fulfill({ response, headers: polls.length ? { ...headers, 'x-build': answer() } : headers });
    });
    // Counts /version bodies the page has read. The watch's own continuation (store update,
    // subscription, timer) runs in the same microtask checkpoint, so once the count is seen
    // from outside, the answer has been handled.
    await page.addInitScript(() => {
      const w = window as unknown as { __versionReads: number };
      w.__versionReads = 0;
      const original = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const res = await original(input, init);
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (new URL(url, location.href).pathname === '/version') {
          const text = res.text.bind(res);
          res.text = async () => {
            try {
              return await text();
            } finally {
              w.__versionReads++;
            }
          };
        }
        return res;
      };
    });
    await page.clock.install();
    await open(page, '/');
    await page.waitForFunction(() => document.activeElement?.matches('[data-action=splash-confirm]') === true, undefined, { polling: 50 });
    await page.click('[data-action=splash-confirm]');
    await page.locator('.splash').waitFor({ state: 'detached' });
    return { page, polls };
  }

  const versionReads = (page: Page) => page.evaluate(() => (window as unknown as { __versionReads: number }).__versionReads);

  /** Advances past the next 30 s poll and waits until its answer was handled. */
  async function nextPoll(page: Page) {
    const before = await versionReads(page);
    await page.clock.runFor(30_000);
    await expect.poll(() => versionReads(page)).toBeGreaterThan(before);
  }

  it('appears 10 s after /version reports another build, not before; later postpones it 5 minutes', async () => {
    const { page, polls } = await start(() => NEW_BUILD);
    const notice = page.locator('.update-notice');

    await nextPoll(page);
    expect(polls.length).toBe(1);
    expect(await notice.count()).toBe(0);
    await page.clock.runFor(9_000);
    await settle(page);
    expect(await notice.count()).toBe(0);
    await page.clock.runFor(1_500);
    await notice.waitFor({ state: 'visible', timeout: 5_000 });
    expect((await notice.locator('span').first().textContent())?.trim()).toBe(en.update.text);

    await page.click('[data-action=update-later]');
    await notice.waitFor({ state: 'detached' });
    // Still postponed after four minutes (the polls keep reporting the new build meanwhile).
    await page.clock.runFor(4 * 60_000);
    await settle(page);
    expect(await notice.count()).toBe(0);
    await page.clock.runFor(61_000);
    await notice.waitFor({ state: 'visible', timeout: 5_000 });
    expect(b?.unexpectedProblems()).toEqual([]);
  });

  it('stays away while /version reports the bundle build', async () => {
    const { page, polls } = await start(() => version);
    await nextPoll(page);
    await page.clock.runFor(6 * 60_000);
    await expect.poll(() => versionReads(page)).toBeGreaterThanOrEqual(12);
    await page.clock.runFor(15_000);
    await settle(page);
    expect(polls.length).toBeGreaterThanOrEqual(12);
    expect(await page.locator('.update-notice').count()).toBe(0);
  });
});
