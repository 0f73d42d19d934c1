import type { Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { homeShows, msg, performerStudio, person, roomsBrowser } from './rooms-helpers';
import { useSfuServer } from './video-helpers';

// The production video engine (VIDEO_RELAY=cloudflare) with Cloudflare's Realtime API out of
// reach (the run's second server: the SFU stand-in it calls cuts every connection while this file
// runs, /_control/unreachable; files run one at a time). The studio
// never claims to be on air: it says it is reconnecting while it publishes again with backoff,
// and then that the publish failed (an alert), in German on a phone.

let browser: PwBrowser;
let show: ShowDetail;
let sfu = '';

const unreachable = (on: boolean) => fetch(`${sfu}/_control/unreachable`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ on }) });

beforeAll(async () => {
  sfu = await useSfuServer();
  expect((await unreachable(true)).status).toBe(200);
  browser = await roomsBrowser('media');
  [show] = await homeShows((s) => s.online && s.contentproviderId === 1);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (sfu) await unreachable(false);
});

describe('a publish the SFU never takes', () => {
  it('the studio says reconnecting, then failed, and never on air', async () => {
    const m = msg('de');
    expect(show).toBeDefined();
    const studio = await person(browser, 'de', 'phone');
    await studio.addInitScript(() => {
      (window as { __airSeen?: string[] }).__airSeen = [];
      new MutationObserver(() => {
        const air = document.querySelector('[data-testid=studio-video]')?.getAttribute('data-air');
        const seen = (window as { __airSeen?: string[] }).__airSeen!;
        if (air && seen[seen.length - 1] !== air) seen.push(air);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-air'], childList: true });
    });
    await performerStudio(studio, show, { online: true });
    await studio.click('[data-testid=camera-start]');
    await studio.locator('[data-testid=studio-video][data-air=reconnecting]').waitFor();
    await expect(studio.locator('[data-testid=studio-air]').textContent()).resolves.toBe(m.studio.video.air.reconnecting);
    // Four attempts with backoff (1 + 2 + 4 + 8 s), then failed; it keeps trying.
    await studio.locator('[data-testid=studio-video][data-air=failed]').waitFor({ timeout: 40_000 });
    await expect(studio.locator('[data-testid=studio-air]').textContent()).resolves.toBe(m.studio.video.air.failed);
    await expect(studio.locator('[data-testid=studio-air]').getAttribute('role')).resolves.toBe('alert');
    expect(await studio.evaluate(() => (window as { __airSeen?: string[] }).__airSeen)).not.toContain('live');
    await studio.context().close();
  }, 90_000);
});
