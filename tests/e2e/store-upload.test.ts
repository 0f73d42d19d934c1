import { join } from 'node:path';
import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib.mjs';
import type { ShowDetail } from '../../src/shared/shows';
import type { GalleryAnswer, VideoAnswer } from '../../src/shared/store';
import type { StudioUploadsAnswer } from '../../src/shared/uploads';
import { baseUrl, call, open } from './browser';
import { newMember } from './members';
import { approveUpload } from './moderation-helpers';
import { homeShows, performerStudio, person, roomsBrowser } from './rooms-helpers';

// Studio uploads in Chromium (issue 13 point 5): the demo performer uploads a committed demo clip
// (poster, duration and the free preview made in the browser, a progress bar to the end), sees it
// in their list waiting for review, the store answers it once an operator approved it, and a member's purchase appears named in the
// performer's statement; in German on a phone a gallery made of
// two pictures (thumbnails made in the browser) goes the same way.

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser('media');
  // Shows the live-room suites leave alone (they take online free-mode shows) come first.
  const online = await homeShows((s) => s.online && s.contentproviderId === 1);
  shows = [...online.filter((s) => !s.freemode), ...online.filter((s) => s.freemode).reverse()].slice(0, 2);
  expect(shows.length).toBe(2);
});

afterAll(async () => {
  await browser?.close();
});

async function mine(page: Page): Promise<StudioUploadsAnswer> {
  const res = await call<StudioUploadsAnswer>(page, 'GET', 'studio/uploads');
  expect(res.status).toBe(200);
  return res.body;
}

describe('studio uploads', () => {
  it('the performer uploads a video with a progress bar; it is listed and published in the store (en, desktop)', async () => {
    const page = await person(browser, 'en', 'desktop');
    const show = shows[0];
    await performerStudio(page, show);
    const form = page.locator('[data-testid=upload-video-form]');
    await form.locator('input[name=file]').setInputFiles(join(root, 'media', 'demo', 'clips', '2.webm'));
    await form.locator('input[name=title_en]').fill('Upload test clip');
    await form.locator('input[name=title_de]').fill('Upload-Testclip');
    await form.locator('input[name=price]').fill('35');
    const tag = await form.locator('select[name=tags] option').first().getAttribute('value');
    await form.locator('select[name=tags]').selectOption([tag!]);
    await form.locator('[data-testid=upload-video-submit]').click();
    // The bar is shown while the bytes and the preview (recorded in real time) go up, then the result.
    await page.locator('[data-testid=upload-video-progress]').waitFor();
    await page.locator('[data-testid=upload-video-status][data-phase=done]').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('[data-testid=upload-video-progress]').count()).toBe(0);
    const item = page.locator('[data-testid=studio-upload-videos] li[data-status=published][data-state=review]', { hasText: 'Upload test clip' });
    await item.waitFor();

    const video = (await mine(page)).videos.find((v) => v.title_en === 'Upload test clip')!;
    expect(video).toMatchObject({ status: 'published', review: 'pending', price: 35, title_de: 'Upload-Testclip', duration: 20 });
    expect(await item.getAttribute('data-id')).toBe(String(video.id));
    // The store has it once an operator approved it (issue 29).
    expect((await fetch(`${baseUrl()}/api/videos/${video.id}`)).status).toBe(404);
    await approveUpload(browser, 'video', video.id);
    const res = await fetch(`${baseUrl()}/api/videos/${video.id}`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as VideoAnswer;
    expect(answer).toMatchObject({ id: video.id, title_en: 'Upload test clip', title_de: 'Upload-Testclip', price: 35, duration: 20 });
    expect(answer.tags.map((t) => t.slug)).toEqual([tag]);
    expect(answer.parts_list).toHaveLength(1);
    // The browser-made preview and poster are there for everyone.
    const preview = await fetch(`${baseUrl()}${answer.parts_list[0].preview_url}`);
    expect(preview.status).toBe(200);
    expect(new Uint8Array(await preview.arrayBuffer()).subarray(0, 4)).toEqual(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]));
    const poster = await fetch(`${baseUrl()}${answer.poster}`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');

    // A member buys it: the sale is named in the performer's statement.
    const buyer = await person(browser, 'en', 'desktop');
    await newMember(buyer, { coins: 100, ageChecked: true });
    const bought = await call(buyer, 'POST', `videos/buy/${video.ccid}/1`, { use_voucher: 0 });
    expect(bought.status).toBe(200);
    await buyer.context().close();
    await open(page, '/studio');
    const row = page.locator('[data-testid=studio-statement] tr', { hasText: 'Upload test clip' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Sale · Upload test clip');
    await page.context().close();
  });

  it('a gallery made of two pictures goes up with browser-made thumbnails and is published (de, phone)', async () => {
    const page = await person(browser, 'de', 'phone');
    const show = shows[1];
    await performerStudio(page, show);
    // Two PNG pictures of different sizes: screenshots of the studio itself.
    const wide = await page.screenshot({ clip: { x: 0, y: 0, width: 380, height: 220 } });
    const tall = await page.screenshot({ clip: { x: 0, y: 0, width: 200, height: 300 } });
    const form = page.locator('[data-testid=upload-gallery-form]');
    await form.locator('input[name=files]').setInputFiles([
      { name: 'wide.png', mimeType: 'image/png', buffer: wide },
      { name: 'tall.png', mimeType: 'image/png', buffer: tall },
    ]);
    await form.locator('input[name=title_en]').fill('Upload test gallery');
    await form.locator('input[name=title_de]').fill('Upload-Testgalerie');
    await form.locator('input[name=price]').fill('0');
    await form.locator('[data-testid=upload-gallery-submit]').click();
    const status = page.locator('[data-testid=upload-gallery-status][data-phase=done]');
    await status.waitFor({ timeout: 60_000 });
    expect(await status.textContent()).toContain('Die Galerie „Upload test gallery“ ist hochgeladen');
    await page.locator('[data-testid=studio-upload-galleries] li[data-status=published][data-state=review]', { hasText: 'Upload-Testgalerie' }).waitFor();

    const gallery = (await mine(page)).galleries.find((g) => g.title_en === 'Upload test gallery')!;
    expect(gallery).toMatchObject({ status: 'published', review: 'pending', picture_count: 2, price: 0 });
    await approveUpload(browser, 'gallery', gallery.id);
    const res = await fetch(`${baseUrl()}/api/galleries/${show.id}/${gallery.id}`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as GalleryAnswer;
    expect(answer.pictures.map((p) => [p.idx, p.width, p.height])).toEqual([
      [1, 380, 220],
      [2, 200, 300],
    ]);
    // The thumbnail was made in the browser: the picture scaled into 360x240, same type (PNG's IHDR).
    const thumb = await fetch(`${baseUrl()}${answer.pictures[0].thumb_url}`);
    expect(thumb.status).toBe(200);
    const full = await fetch(`${baseUrl()}${answer.pictures[0].full_url}`);
    expect(full.status).toBe(200);
    const [t, f] = [new Uint8Array(await thumb.arrayBuffer()), new Uint8Array(await full.arrayBuffer())];
    expect(f.length).toBe(wide.length);
    const size = (png: Uint8Array) => {
      const view = new DataView(png.buffer, png.byteOffset);
      return [view.getUint32(16), view.getUint32(20)];
    };
    expect(t.subarray(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
    expect(size(f)).toEqual([380, 220]);
    expect(size(t)).toEqual([360, 208]);
    await page.context().close();
  });
});
