import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, open } from './browser';
import { msg, performerStudio, person, roomsBrowser, showsByIds, type Device } from './rooms-helpers';
import type { Lang } from './members';

// The studio's "Broadcast from OBS" card (issue 28): the WHIP server URL and the stream key, made
// here and shown once, a new key replacing the old (the old one then opens nothing at /whip). This
// run's main server sends video peer to peer, so a valid key and offer get 503 (OBS needs the SFU);
// publishing through the SFU is the SFU stand-in's test.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  shows = await showsByIds(210, 229, (s) => s.contentproviderId === 1);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const OFFER = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'a=sendonly', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:1', 'a=sendonly', ''].join('\r\n');

/** POST /whip/{show} from outside the site (no cookies), as OBS does: the status. */
async function whipStatus(show: number, key: string, sdp = OFFER): Promise<number> {
  const res = await fetch(`${baseUrl()}/whip/${show}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/sdp' }, body: sdp });
  return res.status;
}

const keyOf = (page: Page) => page.locator('[data-testid=obs-key]').inputValue();

describe('broadcast from OBS: the stream key in the studio', () => {
  for (const [lang, device, i] of [['de', 'phone', 0], ['en', 'desktop', 1]] as [Lang, Device, number][]) {
    it(`${lang} ${device}: the key is made, shown once, replaced; the old one stops working`, async () => {
      const m = msg(lang);
      const show = shows[i]!;
      const page = await person(browser, lang, device);
      await performerStudio(page, show);
      const card = page.locator('[data-testid=studio-obs]');
      await expect(card.locator('h2').textContent()).resolves.toBe(m.studio.obs.title);
      await expect(page.locator('[data-testid=obs-server]').inputValue()).resolves.toBe(`${baseUrl()}/whip/${show.id}`);
      await card.locator('[data-testid=obs-key-new]').click();
      const first = await page.locator('[data-testid=obs-key]').waitFor().then(() => keyOf(page));
      expect(first).toMatch(/^sk_/);
      await expect(page.locator('[data-testid=obs-key-once]').textContent()).resolves.toBe(m.studio.obs.keyOnce);
      // The key opens this show's endpoint: a well-formed offer reaches the room (peer to peer here: 503, not 401).
      expect(await whipStatus(show.id, first)).toBe(503);
      expect(await whipStatus(show.id, first, 'not sdp')).toBe(400);
      // Shown once: after a reload only when it was made.
      await open(page, '/studio');
      await page.locator('[data-testid=obs-key-state]').waitFor();
      expect(await page.locator('[data-testid=obs-key]').count()).toBe(0);
      // A new key (confirmed): the old one opens nothing any more.
      page.once('dialog', (d) => {
        expect(d.message()).toBe(m.studio.obs.confirmNew);
        void d.accept();
      });
      await card.locator('[data-testid=obs-key-new]').click();
      await page.locator('[data-testid=obs-key]').waitFor();
      const second = await keyOf(page);
      expect(second).not.toBe(first);
      expect(await whipStatus(show.id, first)).toBe(401);
      expect(await whipStatus(show.id, second)).toBe(503);
      await page.context().close();
    }, 90_000);
  }
});
