import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Member } from './account-helpers';
import { Client, expectError, expectJson } from './helpers';
import { buyer, objectBytes, paidGalleries, paidVideos, PART_SIZE, PICTURE_SIZE, putGalleryMedia, putVideoMedia, type GalleryPick, type VideoPick } from './store-helpers';
import { MEDIA_STREAMS_MAX } from '../../src/server/features/store/media.routes';
import { mediaUrl, type FreeGalleryAnswer, type GalleryAnswer, type PlayAnswer } from '../../src/shared/store';

// Issue 13, the media stream: whole parts and full pictures only for owners, checked on every
// request; Range (206, open-ended, suffix, 416), ETag and If-None-Match (304).

let video: VideoPick;
let gallery: GalleryPick;
let owner: Member;
let partKey: string;

beforeAll(async () => {
  [video] = await paidVideos(1, 100);
  [gallery] = await paidGalleries(1, 100);
  await putVideoMedia(video.id);
  await putGalleryMedia(gallery.id);
  owner = await buyer(2000);
  await expectJson(await owner.client.post(`/api/videos/buy/${video.ccid}/1`, {}), 200);
  await expectJson(await owner.client.post(`/api/galleries/buy/${gallery.show_id}/${gallery.id}`, {}), 200);
  partKey = (await env.DB.prepare('SELECT media_key FROM video_parts WHERE video_id = ? AND part = 1').bind(video.id).first<{ media_key: string }>())!.media_key;
});

const part = () => mediaUrl.part(video.id, 1);
const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe('whole parts', () => {
  it('answers the owner 200 with Accept-Ranges, ETag, private caching and the whole file', async () => {
    const res = await owner.client.get(part());
    expect(res.status).toBe(200);
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Content-Type')).toBe('video/webm');
    expect(res.headers.get('Cache-Control')).toBe('private, no-cache');
    expect(res.headers.get('ETag')).toMatch(/^"/);
    expect(await bytes(res)).toEqual(objectBytes(partKey, PART_SIZE));
  });

  it('answers bytes=0-99 with 206 and the exact Content-Range and body', async () => {
    const res = await owner.client.get(part(), { Range: 'bytes=0-99' });
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe(`bytes 0-99/${PART_SIZE}`);
    expect(res.headers.get('Content-Length')).toBe('100');
    expect(await bytes(res)).toEqual(objectBytes(partKey, PART_SIZE).slice(0, 100));
  });

  it('answers an open-ended range (a-) and a suffix range (-n) with 206', async () => {
    const open = await owner.client.get(part(), { Range: 'bytes=900-' });
    expect(open.status).toBe(206);
    expect(open.headers.get('Content-Range')).toBe(`bytes 900-999/${PART_SIZE}`);
    expect(await bytes(open)).toEqual(objectBytes(partKey, PART_SIZE).slice(900));
    const suffix = await owner.client.get(part(), { Range: 'bytes=-10' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('Content-Range')).toBe(`bytes 990-999/${PART_SIZE}`);
    expect(await bytes(suffix)).toEqual(objectBytes(partKey, PART_SIZE).slice(990));
    const clamped = await owner.client.get(part(), { Range: 'bytes=500-5000' });
    expect(clamped.status).toBe(206);
    expect(clamped.headers.get('Content-Range')).toBe(`bytes 500-999/${PART_SIZE}`);
    expect((await bytes(clamped)).length).toBe(500);
  });

  it('answers a range beyond the end with 416 and bytes */size', async () => {
    for (const range of [`bytes=${PART_SIZE}-`, 'bytes=5000-6000', 'bytes=-0']) {
      const res = await owner.client.get(part(), { Range: range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('Content-Range')).toBe(`bytes */${PART_SIZE}`);
    }
  });

  it('answers a matching If-None-Match with 304 and a stale one with the file', async () => {
    const etag = (await owner.client.get(part())).headers.get('ETag')!;
    const res = await owner.client.get(part(), { 'If-None-Match': etag });
    expect(res.status).toBe(304);
    expect(res.headers.get('ETag')).toBe(etag);
    expect((await owner.client.get(part(), { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('refuses visitors and other members (403) on every request, Range included', async () => {
    const visitor = new Client();
    const other = await buyer(1000);
    for (const client of [visitor, other.client]) {
      await expectError(await client.get(part()), 403, 'store.not_owned');
      await expectError(await client.get(part(), { Range: 'bytes=0-99' }), 403, 'store.not_owned');
    }
    await expectError(await other.client.get(`/api/videos/play/${video.ccid}/1`), 403, 'store.not_owned');
    await expectError(await visitor.get(`/api/videos/play/${video.ccid}/1`), 401, 'unauthenticated');
  });

  it('gives the owner the stream address on play', async () => {
    const play = await expectJson<PlayAnswer>(await owner.client.get(`/api/videos/play/${video.ccid}/1`), 200);
    expect(play).toEqual({ url: part(), mime: 'video/webm', duration: 20 });
    await expectError(await owner.client.get(`/api/videos/play/${video.ccid}/${video.parts + 1}`), 404, 'not_found');
  });

  it('serves previews and posters to everyone; 404 for unknown parts and junk ids', async () => {
    const preview = await new Client().get(mediaUrl.preview(video.id, 1), { Range: 'bytes=0-9' });
    expect(preview.status).toBe(206);
    expect(preview.headers.get('Cache-Control')).toBe('public, max-age=86400');
    const poster = await new Client().get(mediaUrl.poster(video.id));
    expect(poster.status).toBe(302);
    expect(poster.headers.get('Location')).toBe(`/img/video/${video.id}.svg`);
    const [uploaded] = await paidVideos(1, 102);
    await env.MEDIA.put('test/poster.png', objectBytes('poster', 50), { httpMetadata: { contentType: 'image/png' } });
    await env.DB.prepare("UPDATE videos SET poster_key = 'test/poster.png' WHERE id = ?").bind(uploaded.id).run();
    const own = await new Client().get(mediaUrl.poster(uploaded.id));
    expect(own.status).toBe(200);
    expect(own.headers.get('Content-Type')).toBe('image/png');
    expect(await bytes(own)).toEqual(objectBytes('poster', 50));
    for (const path of [`/media/videos/${video.id}/99`, '/media/videos/999999/1', '/media/videos/-1/1', '/media/videos/1e99/1', '/media/videos/x/1/preview', '/media/videos/%00/1', `/media/videos/${'9'.repeat(300)}/1`]) {
      const res = await owner.client.get(path);
      expect(res.status, path).toBe(404);
    }
  });
});

describe('gallery pictures', () => {
  it('serves thumbnails to everyone and full pictures only to owners', async () => {
    const key = (await env.DB.prepare('SELECT full_key FROM gallery_pictures WHERE gallery_id = ? AND idx = 1').bind(gallery.id).first<{ full_key: string }>())!.full_key;
    const full = mediaUrl.picture(gallery.id, 1, 'full');
    const res = await owner.client.get(full);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(await bytes(res)).toEqual(objectBytes(key, PICTURE_SIZE));
    const other = await buyer(0);
    await expectError(await other.client.get(full), 403, 'store.not_owned');
    await expectError(await new Client().get(full), 403, 'store.not_owned');
    expect((await new Client().get(mediaUrl.picture(gallery.id, 1, 'thumb'))).status).toBe(200);
    expect((await new Client().get(mediaUrl.picture(gallery.id, gallery.picture_count + 1, 'thumb'))).status).toBe(404);
    const seen = await expectJson<GalleryAnswer>(await other.client.get(`/api/galleries/${gallery.show_id}/${gallery.id}`), 200);
    expect(seen.owned).toBe(false);
    expect(seen.pictures.every((p) => p.full_url === null && p.thumb_url.endsWith('/thumb'))).toBe(true);
    const mine = await expectJson<GalleryAnswer>(await owner.client.get(`/api/galleries/${gallery.show_id}/${gallery.id}`), 200);
    expect(mine.owned).toBe(true);
    expect(mine.pictures).toHaveLength(gallery.picture_count);
    expect(mine.pictures[0].full_url).toBe(full);
  });

  it('opens a free gallery for everyone (galleries/free) and refuses a paid one (403 store.not_free)', async () => {
    const [free] = await paidGalleries(1, 101);
    await env.DB.prepare('UPDATE galleries SET price = 0 WHERE id = ?').bind(free.id).run();
    await putGalleryMedia(free.id);
    const answer = await expectJson<FreeGalleryAnswer>(await new Client().get(`/api/galleries/free/${free.id}`), 200);
    expect(answer.images).toHaveLength(free.picture_count);
    expect(answer.images[0].full_url).toBe(mediaUrl.picture(free.id, 1, 'full'));
    expect((await new Client().get(answer.images[0].full_url!)).status).toBe(200);
    await expectError(await new Client().get(`/api/galleries/free/${gallery.id}`), 403, 'store.not_free');
    for (const id of ['999999', '-1', 'x', '1e99']) await expectError(await new Client().get(`/api/galleries/free/${id}`), 404, 'not_found');
  });
});

describe('video streams per account (issue 24)', () => {
  const held = (key: string) => env.DB.prepare('SELECT COUNT(*) AS n FROM leases WHERE key = ?').bind(key).first<{ n: number }>().then((r) => r!.n);

  /** Polls `check` until it is true or the deadline passes. */
  async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it(`40 parallel Range requests of one member: ${MEDIA_STREAMS_MAX} stream, the rest get 429 media_busy; others are not held up; a sent body gives its place back`, async () => {
    const looper = await buyer(2000);
    await expectJson(await looper.client.post(`/api/videos/buy/${video.ccid}/1`, {}), 200);
    const key = `streams:user:${looper.id}`;
    // The bodies are not read yet: every answered stream is still in flight.
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => looper.client.get(part(), { Range: `bytes=${i}-${i + 99}` })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 206)).toHaveLength(MEDIA_STREAMS_MAX);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - MEDIA_STREAMS_MAX);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: 'media_busy' });
    expect(await held(key)).toBe(MEDIA_STREAMS_MAX);
    // Meanwhile the owner of the earlier tests and a visitor (a preview) are served.
    expect((await owner.client.get(part(), { Range: 'bytes=0-9' })).status).toBe(206);
    const preview = await new Client().get(mediaUrl.preview(video.id, 1));
    expect(preview.status).toBe(200);
    await preview.arrayBuffer();
    // Each stream sends its own bytes; once sent, the places come back.
    const all = objectBytes(partKey, PART_SIZE);
    for (const [i, res] of answers.entries()) if (res.status === 206) expect(await bytes(res)).toEqual(all.slice(i, i + 100));
    await eventually(async () => (await held(key)) === 0, 'the places to be given back');
    const again = await looper.client.get(part(), { Range: 'bytes=0-99' });
    expect(again.status).toBe(206);
    expect(await bytes(again)).toEqual(all.slice(0, 100));
  });

  it('a HEAD, a 304 and a refused request hold no place', async () => {
    const m = await buyer(2000);
    await expectJson(await m.client.post(`/api/videos/buy/${video.ccid}/1`, {}), 200);
    const etag = (await m.client.fetch(part(), { method: 'HEAD' })).headers.get('ETag')!;
    for (let i = 0; i < MEDIA_STREAMS_MAX + 2; i++) {
      expect((await m.client.fetch(part(), { method: 'HEAD' })).status).toBe(200);
      expect((await m.client.get(part(), { 'If-None-Match': etag })).status).toBe(304);
    }
    expect(await held(`streams:user:${m.id}`)).toBe(0);
  });
});
