import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, VideoSummary } from '../../src/shared/shows';
import { call, GERMAN_PHONE, lobbyConnected, open, type Browser } from './browser';
import { topBarCoins } from './billing-helpers';
import { grantCoins, launchIn, MESSAGES, newMember, uniq, type Lang } from './members';

// The video store (issue 13) in Chromium: a member watches the preview, buys the video (the
// balance falls in a second tab too), plays the whole part and seeks (206 answers), rates it and
// finds it in the archive; FREEVIDEO buys one without coins; a visitor gets 403 for the stream.

const COINS = 2_000;

async function pricedVideo(page: Page, skip: number[] = []): Promise<VideoSummary> {
  const res = await call<Paged<VideoSummary>>(page, 'GET', 'search/videos?limit=48&sort=price_asc');
  const video = res.body.data.find((v) => v.price > 0 && v.price < COINS && !skip.includes(v.id));
  if (!video) throw new Error('no priced video in the store');
  return video;
}

/** Plays and waits until the video element really advances. */
async function playing(page: Page): Promise<void> {
  await page.locator('[data-testid=video-player][data-playing="1"]').waitFor();
  await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid=video-player] video')?.currentTime ?? 0) > 0.2);
}

// In English on a desktop (the gallery store: German on a phone).
const SETUPS: [Lang, typeof GERMAN_PHONE | undefined][] = [['en', undefined]];

describe.each(SETUPS)('the video store (%s)', (lang, setup) => {
  const m = MESSAGES[lang];
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn(lang, setup ? { viewport: setup.viewport, locale: setup.locale, acceptLanguage: setup.acceptLanguage } : {});
  });
  afterAll(() => b?.close());

  it('a member watches the preview, buys (balance falls in both tabs), plays the whole part, seeks, rates and finds it in the archive', async () => {
    const page = b.page;
    const member = await newMember(page);
    await grantCoins(member.id, COINS, `store-e2e-${uniq()}`);
    const video = await pricedVideo(page);

    await open(page, `/videos/clip/${video.id}`);
    expect(await page.locator('h1[data-testid=item-title]').textContent()).toBe(video.title);
    const player = page.locator('[data-testid=video-player]');
    expect(await player.getAttribute('data-full')).toBe('0');
    expect(await page.locator('[data-testid=video-player] video').getAttribute('src')).toBe(`/media/videos/${video.id}/1/preview`);
    await page.click('[data-testid=player-big-play]');
    await playing(page);

    const other = await b.newPage();
    await open(other, '/faq');
    await lobbyConnected(other);
    expect(await topBarCoins(other)).toBe(COINS);

    // Every answer of the whole part's stream, from the moment it is bought.
    const media: Response[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === `/media/videos/${video.id}/1`) media.push(r);
    });
    await page.getByRole('button', { name: m.store.buy.coins[video.price === 1 ? 'video_one' : 'video_other'].replace('{{count}}', String(video.price)) }).click();
    await page.locator('[data-testid=store-clip][data-owned="1"]').waitFor();
    expect(await topBarCoins(page)).toBe(COINS - video.price);
    await other.waitForFunction((coins) => document.querySelector('.app-bar [data-testid=coins]')?.textContent?.trim() === String(coins), COINS - video.price);
    await other.close();

    // The whole part: its stream answers Range requests with 206.
    await page.waitForFunction((src) => document.querySelector('[data-testid=video-player] video')?.getAttribute('src') === src, `/media/videos/${video.id}/1`);
    expect(await player.getAttribute('data-full')).toBe('1');
    await page.click('[data-testid=player-toggle]');
    await playing(page);
    const seekTo = 12;
    const before = media.length;
    await page.locator('[data-testid=player-seek]').fill(String(seekTo));
    await page.waitForFunction((to) => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid=video-player] video');
      return !!v && !v.seeking && v.currentTime >= to;
    }, seekTo);
    const ranged = media.filter((r) => r.status() === 206);
    expect(ranged.length).toBeGreaterThan(0);
    expect(media.every((r) => r.status() === 206)).toBe(true);
    // Requests the seek needed (none when the short clip was buffered whole) are ranged too.
    for (const r of media.slice(before)) expect(r.status()).toBe(206);
    // The first request asks for a range and gets it with Content-Range (later ones the browser may
    // answer from its cache, whose answers come without their headers).
    expect(await media[0].request().headerValue('range')).toMatch(/^bytes=\d+-/);
    expect(await media[0].headerValue('content-range')).toMatch(/^bytes \d+-\d+\/\d+$/);
    for (const r of media) expect(await r.request().headerValue('range')).toMatch(/^bytes=\d+-/);

    // Keys on the player: k pauses, ArrowLeft goes back 5 s, m mutes; volume and position are kept.
    await page.focus('[data-testid=video-player]');
    await page.keyboard.press('k');
    await page.locator('[data-testid=video-player][data-playing="0"]').waitFor();
    const at = await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid=video-player] video')!.currentTime);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((t) => Math.abs(document.querySelector<HTMLVideoElement>('[data-testid=video-player] video')!.currentTime - (t - 5)) < 0.5, at);
    await page.keyboard.press('m');
    await page.waitForFunction(() => document.querySelector<HTMLVideoElement>('[data-testid=video-player] video')!.muted);
    await page.keyboard.press('k');
    await page.locator('[data-testid=video-player][data-playing="1"]').waitFor();
    await page.keyboard.press('k');
    await page.locator('[data-testid=video-player][data-playing="0"]').waitFor();
    const left = await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid=video-player] video')!.currentTime);
    await open(page, `/videos/clip/${video.id}`);
    await page.waitForFunction(
      (t) => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid=video-player] video');
        return !!v && v.getAttribute('src')?.endsWith('/1') && v.readyState >= 1 && v.muted && Math.abs(v.currentTime - t) < 1;
      },
      left,
    );

    // Rating after buying.
    await page.locator('[data-testid=rating-control] label').nth(3).click();
    await page.locator('[data-testid=rating-control][data-mine="4"]').waitFor();
    expect(await page.locator('[data-testid=rating-summary]').textContent()).toContain(m.store.rate.mine_other.replace('{{count}}', '4'));

    await open(page, '/users/archive/videos');
    await page.locator(`[data-video-id="${video.id}"][data-owned="1"]`).waitFor();
    expect(await page.locator('h1').textContent()).toBe(m.store.archive.videosTitle);
  });

});

/** Logs out and signs up another member from a visitor's page that has settled. */
async function asNewMember(page: Page, opts: { verified?: boolean } = {}): Promise<void> {
  await call(page, 'POST', 'auth/logout');
  await open(page, '/faq');
  await page.waitForLoadState('networkidle');
  await newMember(page, opts);
}

describe('prizes and visitors', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await launchIn('en');
  });
  afterAll(() => b?.close());

  it("a visitor who copies the whole part's stream address gets 403 (the play call 401)", async () => {
    const page = b.page;
    await open(page, '/faq');
    const video = await pricedVideo(page);
    const play = await call(page, 'GET', `videos/play/${video.ccid}/1`);
    expect(play.status).toBe(401);
    const stream = await page.evaluate(async (url) => (await fetch(url, { headers: { Range: 'bytes=0-' } })).status, `/media/videos/${video.id}/1`);
    expect(stream).toBe(403);
    const preview = await page.evaluate(async (url) => (await fetch(url, { headers: { Range: 'bytes=0-' } })).status, `/media/videos/${video.id}/1/preview`);
    expect(preview).toBe(206);
  });

  it("the lists: /videos pages with canonical links; a show's list and clip page are nested in its address with breadcrumbs", async () => {
    // A page of its own: the visitor test's refused calls stay in the first page's console.
    const page = await b.newPage();
    await open(page, '/videos?page=2');
    expect(await page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/videos?page=2`);
    expect(await page.locator('.video-tile').count()).toBe(48);
    expect(await page.getAttribute('.pagination a[rel=prev]', 'href')).toBe('/videos');
    const first = await page.getAttribute('.video-tile a.tile-link', 'href');
    expect(first).toMatch(/^\/videos\/clip\/\d+$/);

    const video = await pricedVideo(page);
    const showList = `/chat/${video.show_id}/${video.showSlug}/videos`;
    await open(page, showList);
    expect(await page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}${showList}`);
    const tile = page.locator(`.video-tile[data-video-id="${video.id}"] a.tile-link`);
    expect(await tile.getAttribute('href')).toBe(`${showList}/${video.id}`);
    await open(page, `${showList}/${video.id}`);
    const crumbs = await page.$$eval('.breadcrumbs li', (els) => els.map((e) => e.textContent?.trim()));
    expect(crumbs).toEqual([MESSAGES.en.nav.home, video.showName, MESSAGES.en.store.nav.videos, video.title]);
    expect(await page.getAttribute('link[rel=canonical]', 'href')).toBe(`${b.base}/videos/clip/${video.id}`);
    expect(await page.locator('[data-testid=more-like] .video-tile').count()).toBeGreaterThan(0);
    expect(await page.locator(`[data-testid=more-like] .video-tile[data-video-id="${video.id}"]`).count()).toBe(0);
    expect(b.unexpectedProblems(page)).toEqual([]);
    await page.close();
  });

  it('FREEVIDEO buys a video without coins (the balance stays)', async () => {
    const page = b.page;
    await newMember(page);
    const redeem = await call(page, 'POST', 'coupons/redeem', { code: 'FREEVIDEO' });
    expect(redeem.status).toBe(200);
    const video = await pricedVideo(page);
    await open(page, `/videos/clip/${video.id}`);
    const coins = await topBarCoins(page);
    await page.click('[data-testid=buy-prize]');
    await page.locator('[data-testid=store-clip][data-owned="1"]').waitFor();
    expect(await page.locator('[data-testid=buy-notice]').textContent()).toBe(MESSAGES.en.store.buy.donePrize);
    expect(await topBarCoins(page)).toBe(coins);
    await page.reload();
    await page.locator('[data-testid=store-clip][data-owned="1"]').waitFor();
    expect(await topBarCoins(page)).toBe(coins);
  });

  it('without coins the buy button explains it and leads to /billing; without a confirmed address it leads to /verify', async () => {
    // A page of its own: the owned clip of the test before still calls the API, and a logout under
    // it sends that page to /logout (a navigation that would cut into this test's calls).
    await b.page.close();
    const page = await b.newPage();
    await open(page, '/faq');
    await asNewMember(page);
    const video = await pricedVideo(page);
    await open(page, `/videos/clip/${video.id}`);
    await page.click('[data-testid=buy-coins]');
    await page.locator('[data-testid=buy-error][data-code="store.no_coins"]').waitFor();
    expect(await page.locator('[data-testid=buy-error] p').textContent()).toBe(MESSAGES.en.errors.store.no_coins);
    expect(await page.locator('[data-testid=buy-topup]').getAttribute('href')).toBe('/billing');

    // A member who has not confirmed the address is told so, with the way to do it.
    await asNewMember(page, { verified: false });
    await open(page, `/videos/clip/${video.id}`);
    await page.click('[data-testid=buy-coins]');
    await page.locator('[data-testid=buy-error][data-code="not_verified"]').waitFor();
    expect(await page.locator('[data-testid=buy-error] p').textContent()).toBe(MESSAGES.en.errors.not_verified);
    expect(await page.locator('[data-testid=buy-error] a').getAttribute('href')).toBe('/verify');
    expect(new URL(page.url()).pathname).toBe(`/videos/clip/${video.id}`);
  });
});
