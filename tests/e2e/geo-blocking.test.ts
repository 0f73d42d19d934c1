import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, lobbyConnected, open } from './browser';
import type { Lang } from './members';
import { performerStudio, person, roomsBrowser, showPath, showsByIds, type Device } from './rooms-helpers';

// Geo-blocking end to end (issue 30 point 3). The performer (German, phone) blocks Austria and the
// region Bavaria in the studio and checks the preview; viewers whose place is given by the dev_geo
// cookie (DEV_GEO=1 in the e2e servers' config only) look for the show: one in Austria (de, phone),
// one in Bavaria (en, desktop) find it nowhere (home list, search, its address is a 404) and never
// receive a status push of it; viewers in New York (en, phone) and Hamburg (de, desktop) see it.
// Shows 131-140 are this file's.

async function ops(id: number, online: boolean): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/ops/shows/${id}/status`, {
    method: 'POST',
    headers: { Authorization: 'Bearer e2e-ops-token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ online }),
  });
  expect(res.status).toBe(200);
}

interface Viewer {
  place: string;
  page: Page;
  /** The ids of the shows in every show:bulkupdate the page's lobby socket received. */
  pushed: number[];
}

async function viewer(browser: PwBrowser, place: string, lang: Lang, device: Device): Promise<Viewer> {
  const page = await person(browser, lang, device);
  await page.context().addCookies([{ name: 'dev_geo', value: place, url: baseUrl() }]);
  const pushed: number[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/api/realtime')) return;
    ws.on('framereceived', ({ payload }) => {
      try {
        const e = JSON.parse(String(payload)) as { type?: string; data?: { id: number }[] };
        if (e.type === 'show:bulkupdate') pushed.push(...(e.data ?? []).map((d) => d.id));
      } catch {
        // not an event
      }
    });
  });
  return { place, page, pushed };
}

/** Every show id of the home list's pages, as the page's own list asks for them (with the viewer's cookies). */
async function homeListIds(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const ids: number[] = [];
    for (let p = 1; p <= 20; p++) {
      const r = (await (await fetch(`/api/shows?page=${p}`)).json()) as { data: { id: number }[]; more: boolean };
      ids.push(...r.data.map((s) => s.id));
      if (!r.more) break;
    }
    return ids;
  });
}

describe('geo-blocking', () => {
  let browser: PwBrowser;
  let show: ShowDetail;
  let other: ShowDetail;

  beforeAll(async () => {
    browser = await roomsBrowser();
    [show, other] = await showsByIds(131, 140, () => true);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the performer blocks a country and a region in the studio (de, phone) and the preview tells what a place sees', async () => {
    // The performer sets the rules with the searchable list and checks the preview (German, phone).
    const studio = await person(browser, 'de', 'phone');
    await performerStudio(studio, show, { online: true });
    const card = studio.locator('[data-testid=studio-geo]');
    await card.scrollIntoViewIfNeeded();
    for (const [term, code] of [
      ['Österreich', 'AT'],
      ['Bayern', 'DE-BY'],
    ]) {
      await card.locator('[data-testid=studio-geo-search]').fill(term);
      await card.locator(`[data-testid=studio-geo-matches] li[data-code="${code}"] [data-action=geo-block]`).click();
      await studio.waitForFunction((c) => (document.querySelector('[data-testid=studio-geo]')?.getAttribute('data-rules') ?? '').split(',').includes(c), code);
    }
    await expect.poll(() => card.getAttribute('data-rules')).toBe('AT,DE-BY');
    await expect(card.locator('[data-testid=studio-geo-rules] li').allInnerTexts()).resolves.toEqual([expect.stringContaining('Österreich'), expect.stringContaining('Bayern')]);
    await card.locator('[data-testid=studio-geo-place]').selectOption('DE-BY');
    await studio.locator('[data-testid=studio-geo-preview][data-blocked="1"]').waitFor();
    expect(await studio.locator('[data-testid=studio-geo-preview]').innerText()).toContain('Bayern');
    await card.locator('[data-testid=studio-geo-place]').selectOption('DE-HH');
    await studio.locator('[data-testid=studio-geo-preview][data-blocked="0"]').waitFor();
    console.log('geo e2e: studio rules set and previewed');
  }, 180_000);

  it('viewers in the blocked country and region find the show nowhere and get no push of it; viewers elsewhere do', async () => {

    const blocked = [await viewer(browser, 'AT', 'de', 'phone'), await viewer(browser, 'DE-BY', 'en', 'desktop')];
    const elsewhere = [await viewer(browser, 'US-NY', 'en', 'phone'), await viewer(browser, 'DE-HH', 'de', 'desktop')];
    for (const v of [...blocked, ...elsewhere]) {
      const sees = elsewhere.includes(v);
      const label = `${v.place} ${sees ? 'sees' : 'does not see'} the show`;
      // The home list (every page of it).
      await open(v.page, '/');
      expect(await homeListIds(v.page), label).toEqual(sees ? expect.arrayContaining([show.id]) : expect.not.arrayContaining([show.id]));
      // The search by the show's name.
      await open(v.page, `/search/shows?search=${encodeURIComponent(show.name)}`);
      expect(await v.page.locator(`.show-tile[data-show-id="${show.id}"]`).count(), label).toBe(sees ? 1 : 0);
      // Its address: the show's page, or a 404 (not "offline").
      const res = await v.page.goto(new URL(showPath(show), baseUrl()).href);
      expect(res?.status(), label).toBe(sees ? 200 : 404);
      expect(await v.page.locator(`.show-page[data-show-id="${show.id}"]`).count(), label).toBe(sees ? 1 : 0);
      // Back on the home page, with the live lobby connected, for the pushes below.
      await open(v.page, '/');
      await lobbyConnected(v.page);
      console.log(`geo e2e: ${label}`);
    }

    // Status pushes: the show goes off and on, then another show goes online (after it, in order).
    await ops(show.id, false);
    await ops(show.id, true);
    await ops(other.id, true);
    for (const v of elsewhere) {
      await expect.poll(() => v.pushed.includes(other.id) && v.pushed.includes(show.id), { timeout: 15_000 }).toBe(true);
    }
    for (const v of blocked) {
      // The other show's push arrived, so the show's would have come before it.
      await expect.poll(() => v.pushed.includes(other.id), { timeout: 15_000 }).toBe(true);
      expect(v.pushed, `${v.place} got a push of the blocked show`).not.toContain(show.id);
      expect(await v.page.locator(`.show-tile[data-show-id="${show.id}"]`).count()).toBe(0);
    }
  }, 300_000);
});
