import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { GALLERY_PICTURES_MAX, UPLOAD_PICTURE_MAX_BYTES, UPLOAD_VIDEO_MAX_BYTES } from '../../src/shared/store';
import { UPLOAD_CHUNK_BYTES, UPLOAD_CONCURRENT_MAX, UPLOAD_PENDING_MAX, type StudioUploadsAnswer, type UploadedPart, type VideoUploadStart } from '../../src/shared/uploads';
import { Client, expectError, expectJson, req } from './helpers';
import { chatMember, performerOf } from './chat-helpers';
import { jpegFile, mp4File, pngFile, webmFile, WEBM_HEADER } from './media-files';
import { approve } from './moderation-helpers';
import { operator } from './operator-helpers';

// Studio uploads (issue 13): performers only; the declared type and size are checked before
// anything is written; a video goes up as an R2 multipart upload (chunks retried freely), with a
// preview and a poster, and is published on complete; galleries in two sizes; hostile input never 5xx.

const WEBM = [0x1a, 0x45, 0xdf, 0xa3];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** `size` bytes starting with `magic`, the rest a pattern (so a mix-up of chunks shows). */
function bytes(size: number, magic: number[] = [], seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 0xff;
  out.set(magic.slice(0, size));
  return out;
}

async function put(client: Client, path: string, body: Uint8Array<ArrayBuffer> | string, type = 'application/octet-stream'): Promise<Response> {
  if (!client.cookie('XSRF-TOKEN')) await client.csrf();
  const headers = { 'CF-Connecting-IP': client.ip, 'X-XSRF-TOKEN': client.cookie('XSRF-TOKEN') ?? '', Cookie: client.cookieHeader, 'Content-Type': type };
  const res = await req(path, { method: 'PUT', headers, body });
  client.absorb(res);
  return res;
}

const video = (over: Record<string, unknown> = {}) => ({ title_en: 'Sunset test', title_de: 'Sonnenuntergang', price: 40, tags: [], mime: 'video/webm', size: 1000, duration: 12.4, ...over });
const gallery = (over: Record<string, unknown> = {}) => ({
  title_en: 'Colours',
  title_de: 'Farben',
  price: 25,
  pictures: [
    { mime: 'image/png', size: 2000, width: 1200, height: 800 },
    { mime: 'image/png', size: 3000, width: 800, height: 1200 },
  ],
  ...over,
});

async function written(): Promise<{ videos: number; galleries: number; pictures: number; tags: number; objects: number }> {
  const n = (sql: string) => env.DB.prepare(sql).first<{ n: number }>().then((r) => r!.n);
  const objects = (await env.MEDIA.list({ prefix: 'uploads/' })).objects.length;
  return { videos: await n('SELECT COUNT(*) AS n FROM videos'), galleries: await n('SELECT COUNT(*) AS n FROM galleries'), pictures: await n('SELECT COUNT(*) AS n FROM gallery_pictures'), tags: await n('SELECT COUNT(*) AS n FROM video_tags'), objects };
}

async function startVideo(p: Client, over: Record<string, unknown> = {}): Promise<VideoUploadStart> {
  return expectJson<VideoUploadStart>(await p.post('/api/studio/uploads/videos', video(over)), 201);
}

describe('studio uploads', () => {
  it('is for performers only: 401 logged out, 403 not_performer for members, nothing written', async () => {
    const before = await written();
    const guest = new Client();
    await expectError(await guest.get('/api/studio/uploads'), 401, 'unauthenticated');
    await expectError(await guest.post('/api/studio/uploads/videos', video()), 401, 'unauthenticated');
    await expectError(await put(guest, '/api/studio/uploads/videos/1/parts/1?upload=x', bytes(100, WEBM)), 401, 'unauthenticated');
    await expectError(await guest.post('/api/studio/uploads/galleries', gallery()), 401, 'unauthenticated');
    const m = await chatMember(0);
    await expectError(await m.client.get('/api/studio/uploads'), 403, 'not_performer');
    await expectError(await m.client.post('/api/studio/uploads/videos', video()), 403, 'not_performer');
    await expectError(await put(m.client, '/api/studio/uploads/videos/1/preview', bytes(100, WEBM), 'video/webm'), 403, 'not_performer');
    await expectError(await m.client.post('/api/studio/uploads/galleries/1/complete'), 403, 'not_performer');
    expect(await written()).toEqual(before);
  });

  it("a performer's bytes without the CSRF header (another site's form or fetch) are refused with 419 and not stored", async () => {
    const p = await performerOf(240);
    const start = await startVideo(p);
    const headers = { 'CF-Connecting-IP': p.ip, Cookie: p.cookieHeader, 'Content-Type': 'video/webm' };
    const forged = await req(`/api/studio/uploads/videos/${start.video.id}/preview`, { method: 'PUT', headers, body: webmFile(300) });
    await expectError(forged, 419, 'csrf_token_mismatch');
    expect(await env.MEDIA.head(`uploads/videos/${start.video.id}/1-preview`)).toBeNull();
    // The same request with the header is stored.
    expect((await put(p, `/api/studio/uploads/videos/${start.video.id}/preview`, webmFile(300), 'video/webm')).status).toBe(204);
    expect((await env.MEDIA.head(`uploads/videos/${start.video.id}/1-preview`))?.size).toBe(300);
  });

  it('refuses a wrong type or size with 422 field errors and writes nothing', async () => {
    const p = await performerOf(241);
    const before = await written();
    await expectError(await p.post('/api/studio/uploads/videos', video({ mime: 'video/x-msvideo' })), 422, 'validation_failed', ['mime', 'unsupported_type']);
    await expectError(await p.post('/api/studio/uploads/videos', video({ size: UPLOAD_VIDEO_MAX_BYTES + 1 })), 422, 'validation_failed', ['size', 'too_large']);
    await expectError(await p.post('/api/studio/uploads/videos', video({ title_de: '  ' })), 422, 'validation_failed', ['title_de', 'required']);
    await expectError(await p.post('/api/studio/uploads/videos', video({ tags: ['no-such-tag-anywhere'] })), 422, 'validation_failed', ['tags', 'unknown_tag']);
    await expectError(await p.post('/api/studio/uploads/videos', video({ price: -1 })), 422, 'validation_failed', ['price', 'too_small']);
    const pic = { mime: 'image/png', size: 10, width: 10, height: 10 };
    await expectError(await p.post('/api/studio/uploads/galleries', gallery({ pictures: [{ ...pic, mime: 'image/gif' }] })), 422, 'validation_failed', ['pictures.0.mime', 'unsupported_type']);
    await expectError(await p.post('/api/studio/uploads/galleries', gallery({ pictures: [{ ...pic, size: UPLOAD_PICTURE_MAX_BYTES + 1 }] })), 422, 'validation_failed', ['pictures.0.size', 'too_large']);
    await expectError(await p.post('/api/studio/uploads/galleries', gallery({ pictures: Array(GALLERY_PICTURES_MAX + 1).fill(pic) })), 422, 'validation_failed', ['pictures', 'too_many']);
    await expectError(await p.post('/api/studio/uploads/galleries', gallery({ pictures: [] })), 422, 'validation_failed', ['pictures', 'required']);
    expect(await written()).toEqual(before);
  });

  it('a multipart upload round trip (a chunk sent twice) writes the R2 objects and the rows; pending until complete', async () => {
    const p = await performerOf(242);
    const tags = (await env.DB.prepare('SELECT slug FROM tags ORDER BY id LIMIT 2').all<{ slug: string }>()).results.map((t) => t.slug);
    const first = webmFile(UPLOAD_CHUNK_BYTES, 1);
    const last = bytes(1000, [], 2);
    const start = await startVideo(p, { size: first.length + last.length, tags });
    expect(start.chunk_bytes).toBe(UPLOAD_CHUNK_BYTES);
    expect(start.video).toMatchObject({ status: 'pending', title_en: 'Sunset test', title_de: 'Sonnenuntergang', price: 40, duration: 12 });
    const id = start.video.id;
    const base = `/api/studio/uploads/videos/${id}`;
    const q = `?upload=${encodeURIComponent(start.upload)}`;
    const p1 = await expectJson<UploadedPart>(await put(p, `${base}/parts/1${q}`, first), 200);
    await expectJson<UploadedPart>(await put(p, `${base}/parts/2${q}`, bytes(1000, [], 9)), 200);
    // The retry of chunk 2 replaces the first try.
    const p2 = await expectJson<UploadedPart>(await put(p, `${base}/parts/2${q}`, last), 200);
    expect(await put(p, `${base}/preview`, webmFile(3000, 3), 'video/webm')).toHaveProperty('status', 204);
    expect(await put(p, `${base}/poster`, jpegFile(500, 4), 'image/jpeg')).toHaveProperty('status', 204);
    // Pending: in the performer's list, not in the store.
    const mine = await expectJson<StudioUploadsAnswer>(await p.get('/api/studio/uploads'), 200);
    expect(mine.videos.find((v) => v.id === id)?.status).toBe('pending');
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM video_parts WHERE video_id = ?').bind(id).first('n')).toBe(0);
    await expectError(await p.get(`/api/videos/${id}`), 404, 'not_found');
    await expectError(await p.get(`/api/videos/${start.video.ccid}`), 404, 'not_found');
    const listed = async () => (await expectJson<{ data: { id: number }[] }>(await p.get('/api/search/videos?showid=242'), 200)).data.map((v) => v.id);
    expect(await listed()).not.toContain(id);

    const done = await expectJson<{ video: { id: number; status: string } }>(await p.post(`${base}/complete`, { upload: start.upload, parts: [p2, p1] }), 200);
    expect(done.video).toMatchObject({ id, status: 'published' });
    const row = await env.DB.prepare('SELECT status, poster_key, show_id FROM videos WHERE id = ?').bind(id).first();
    expect(row).toEqual({ status: 'published', poster_key: `uploads/videos/${id}/poster`, show_id: 242 });
    const part = await env.DB.prepare('SELECT * FROM video_parts WHERE video_id = ?').bind(id).first();
    expect(part).toEqual({ video_id: id, part: 1, media_key: `uploads/videos/${id}/1`, preview_key: `uploads/videos/${id}/1-preview`, mime: 'video/webm', duration_s: 12, size: first.length + last.length });
    const tagged = await env.DB.prepare('SELECT t.slug FROM video_tags vt JOIN tags t ON t.id = vt.tag_id WHERE vt.video_id = ? ORDER BY t.id').bind(id).all<{ slug: string }>();
    expect(tagged.results.map((t) => t.slug)).toEqual(tags);
    const object = await env.MEDIA.get(`uploads/videos/${id}/1`);
    const stored = new Uint8Array(await object!.arrayBuffer());
    expect(stored.length).toBe(first.length + last.length);
    expect(stored.subarray(0, 4)).toEqual(first.subarray(0, 4));
    expect(stored.subarray(first.length)).toEqual(last);
    expect(object!.httpMetadata?.contentType).toBe('video/webm');
    expect((await env.MEDIA.head(`uploads/videos/${id}/1-preview`))?.size).toBe(3000);
    // Published: no more chunks, and a second complete finds nothing pending.
    await expectError(await put(p, `${base}/parts/1${q}`, first), 404, 'not_found');
    await expectError(await p.post(`${base}/complete`, { upload: start.upload, parts: [p1, p2] }), 404, 'not_found');
    expect((await expectJson<StudioUploadsAnswer>(await p.get('/api/studio/uploads'), 200)).videos.find((v) => v.id === id)?.status).toBe('published');
    // Its performer finds it; the store lists it once an operator approved it (issue 29).
    expect(await expectJson(await p.get(`/api/videos/${id}`), 200)).toMatchObject({ id, ccid: start.video.ccid, title_en: 'Sunset test', price: 40, duration: 12 });
    expect(await listed()).not.toContain(id);
    await approve(await operator(), 'video', id);
    expect(await listed()).toContain(id);
  });

  it('complete refuses a missing preview, missing parts and bytes that are not the declared type', async () => {
    const p = await performerOf(243);
    const start = await startVideo(p, { mime: 'video/mp4' });
    const base = `/api/studio/uploads/videos/${start.video.id}`;
    const q = `?upload=${encodeURIComponent(start.upload)}`;
    await expectError(await p.post(`${base}/complete`, { upload: start.upload, parts: [{ part: 1, etag: 'nope' }] }), 422, 'validation_failed', ['parts', 'upload_incomplete']);
    // A preview or poster of another type than its bytes is refused.
    await expectError(await put(p, `${base}/preview`, bytes(100, JPEG), 'video/webm'), 422, 'validation_failed', ['preview', 'unsupported_type']);
    await expectError(await put(p, `${base}/poster`, webmFile(100), 'image/jpeg'), 422, 'validation_failed', ['poster', 'unsupported_type']);
    const part = await expectJson<UploadedPart>(await put(p, `${base}/parts/1${q}`, webmFile(1000)), 200);
    await expectError(await p.post(`${base}/complete`, { upload: start.upload, parts: [part] }), 422, 'validation_failed', ['file', 'unsupported_type']);
    expect(await env.MEDIA.head(`uploads/videos/${start.video.id}/1`)).toBeNull();
    // Refused for good: the row went (the file cannot become another one).
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM videos WHERE id = ?').bind(start.video.id).first('n')).toBe(0);
    const again = await startVideo(p);
    const b2 = `/api/studio/uploads/videos/${again.video.id}`;
    const part2 = await expectJson<UploadedPart>(await put(p, `${b2}/parts/1?upload=${encodeURIComponent(again.upload)}`, webmFile(1000)), 200);
    await expectError(await p.post(`${b2}/complete`, { upload: again.upload, parts: [part2] }), 422, 'validation_failed', ['preview', 'required']);
    // A missing preview can still be sent: the video stays pending.
    expect(await env.DB.prepare('SELECT status FROM videos WHERE id = ?').bind(again.video.id).first('status')).toBe('pending');
  });

  it('a gallery goes up in two sizes of the declared type and is published when every picture is there', async () => {
    const p = await performerOf(244);
    const { gallery: g } = await expectJson<{ gallery: { id: number; status: string; picture_count: number } }>(await p.post('/api/studio/uploads/galleries', gallery()), 201);
    expect(g).toMatchObject({ status: 'pending', picture_count: 2 });
    const base = `/api/studio/uploads/galleries/${g.id}`;
    await expectError(await p.post(`${base}/complete`), 422, 'validation_failed', ['pictures', 'missing']);
    await expectError(await p.get(`/api/galleries/244/${g.id}`), 404, 'not_found');
    await expectError(await put(p, `${base}/pictures/1/full`, bytes(2000, JPEG), 'image/jpeg'), 422, 'validation_failed', ['full', 'unsupported_type']);
    await expectError(await put(p, `${base}/pictures/3/full`, bytes(2000, PNG), 'image/png'), 404, 'not_found');
    for (const idx of [1, 2]) {
      expect((await put(p, `${base}/pictures/${idx}/full`, pngFile(2000, idx), 'image/png')).status).toBe(204);
      expect((await put(p, `${base}/pictures/${idx}/thumb`, pngFile(300, idx), 'image/png')).status).toBe(204);
    }
    expect(await expectJson(await p.post(`${base}/complete`), 200)).toEqual({ gallery: { id: g.id, status: 'published', review: 'pending' } });
    const pics = await env.DB.prepare('SELECT idx, full_key, thumb_key, mime, width, height FROM gallery_pictures WHERE gallery_id = ? ORDER BY idx').bind(g.id).all();
    expect(pics.results).toEqual([
      { idx: 1, full_key: `uploads/galleries/${g.id}/1-full`, thumb_key: `uploads/galleries/${g.id}/1-thumb`, mime: 'image/png', width: 1200, height: 800 },
      { idx: 2, full_key: `uploads/galleries/${g.id}/2-full`, thumb_key: `uploads/galleries/${g.id}/2-thumb`, mime: 'image/png', width: 800, height: 1200 },
    ]);
    expect((await env.MEDIA.head(`uploads/galleries/${g.id}/2-thumb`))?.size).toBe(300);
    expect(await env.DB.prepare('SELECT status FROM galleries WHERE id = ?').bind(g.id).first('status')).toBe('published');
    const detail = await expectJson<{ pictures: { idx: number; width: number }[] }>(await p.get(`/api/galleries/244/${g.id}`), 200);
    expect(detail.pictures.map((x) => [x.idx, x.width])).toEqual([
      [1, 1200],
      [2, 800],
    ]);
  });

  it("another performer's pending items are not found, and hostile input never gives a 5xx", async () => {
    const owner = await performerOf(245);
    const other = await performerOf(246);
    const start = await startVideo(owner);
    const { gallery: g } = await expectJson<{ gallery: { id: number } }>(await owner.post('/api/studio/uploads/galleries', gallery()), 201);
    const v = `/api/studio/uploads/videos/${start.video.id}`;
    const q = `?upload=${encodeURIComponent(start.upload)}`;
    await expectError(await put(other, `${v}/parts/1${q}`, bytes(100, WEBM)), 404, 'not_found');
    await expectError(await put(other, `${v}/preview`, webmFile(100), 'video/webm'), 404, 'not_found');
    await expectError(await other.post(`${v}/complete`, { upload: start.upload, parts: [{ part: 1, etag: 'x' }] }), 404, 'not_found');
    await expectError(await put(other, `/api/studio/uploads/galleries/${g.id}/pictures/1/full`, bytes(100, PNG), 'image/png'), 404, 'not_found');
    await expectError(await other.post(`/api/studio/uploads/galleries/${g.id}/complete`), 404, 'not_found');
    // Owner, but a made-up upload id, part numbers out of range, an empty or oversized chunk.
    await expectError(await put(owner, `${v}/parts/1?upload=made-up`, bytes(100, WEBM)), 404, 'upload_not_found');
    await expectError(await put(owner, `${v}/parts/0${q}`, bytes(100)), 422, 'validation_failed', ['part', 'out_of_range']);
    await expectError(await put(owner, `${v}/parts/41${q}`, bytes(100)), 422, 'validation_failed', ['part', 'out_of_range']);
    await expectError(await put(owner, `${v}/parts/1${q}`, new Uint8Array(0)), 422, 'validation_failed', ['part', 'required']);
    await expectError(await put(owner, `${v}/parts/1${q}`, bytes(UPLOAD_CHUNK_BYTES + 1)), 413, 'payload_too_large');
    const junk: [string, string, unknown][] = [
      ['POST', '/api/studio/uploads/videos', 'not json'],
      ['POST', '/api/studio/uploads/videos', { ...video(), extra: 1 }],
      ['POST', '/api/studio/uploads/videos', video({ size: 'big', duration: -1, price: 1.5, tags: 'a' })],
      ['POST', '/api/studio/uploads/videos', video({ duration: 1e12, title_en: 'x'.repeat(10_000) })],
      ['POST', '/api/studio/uploads/videos', video({ title_en: 'a\u0000b', tags: Array(50).fill('x') })],
      ['POST', `${v}/complete`, { upload: '../../etc', parts: [{ part: 1, etag: 'x' }] }],
      ['POST', `${v}/complete`, { upload: start.upload, parts: [] }],
      ['POST', `${v}/complete`, { upload: start.upload, parts: [{ part: 99, etag: '' }] }],
      ['POST', '/api/studio/uploads/videos/99999999999/complete', { upload: 'x', parts: [{ part: 1, etag: 'x' }] }],
      ['POST', '/api/studio/uploads/videos/abc/complete', {}],
      ['POST', '/api/studio/uploads/galleries', gallery({ pictures: [{ mime: 'image/png', size: 1, width: 0, height: 1e9 }] })],
      ['POST', '/api/studio/uploads/galleries', gallery({ pictures: 'all' })],
      ['POST', '/api/studio/uploads/galleries/0/complete', {}],
      ['PUT', `${v}/parts/999999999999${q}`, 'x'],
      ['PUT', `${v}/parts/1?upload=${'%00'.repeat(3)}`, 'x'],
      ['PUT', `${v}/poster`, '<svg onload=alert(1)>'],
      ['PUT', `/api/studio/uploads/galleries/${g.id}/pictures/1/full`, '<html>'],
      ['PUT', `/api/studio/uploads/galleries/${g.id}/pictures/99999/thumb`, 'x'],
      ['GET', '/api/studio/uploads/videos', undefined],
    ];
    for (const [method, path, body] of junk) {
      const res = method === 'PUT' ? await put(owner, path, body as string, 'image/png') : await owner.fetch(path, { method, body });
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
    expect(await env.DB.prepare('SELECT status FROM videos WHERE id = ?').bind(start.video.id).first('status')).toBe('pending');
  });

  it('unfinished uploads are capped per show and kind: exactly UPLOAD_PENDING_MAX of 100 parallel starts succeed, the rest 429', async () => {
    const p = await performerOf(247);
    for (const [path, body] of [
      ['/api/studio/uploads/videos', video()],
      ['/api/studio/uploads/galleries', gallery()],
    ] as const) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => p.post(path, body)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(UPLOAD_PENDING_MAX);
      expect(statuses.filter((s) => s === 429)).toHaveLength(100 - UPLOAD_PENDING_MAX);
      await expectError(answers[statuses.indexOf(429)], 429, 'too_many_pending');
    }
    const n = (table: string) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE show_id = 247 AND status = 'pending'`).first('n');
    expect(await n('videos')).toBe(UPLOAD_PENDING_MAX);
    expect(await n('galleries')).toBe(UPLOAD_PENDING_MAX);
    // Another show is not affected; an old unfinished upload no longer counts.
    await startVideo(await performerOf(248));
    await env.DB.prepare("UPDATE videos SET created_at = created_at - 86400 WHERE id = (SELECT MIN(id) FROM videos WHERE show_id = 247 AND status = 'pending')").run();
    expect((await startVideo(p)).video.status).toBe('pending');
  });

  describe('issue 24: the container is checked, a refused file goes, and bodies in flight are capped', () => {
    const ascii = (t: string) => new TextEncoder().encode(t);
    const page = ascii('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    const join = (...parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
      parts.reduce((at, x) => (out.set(x, at), at + x.length), 0);
      return out;
    };
    const otherDocType = () => {
      const f = webmFile(2000);
      const at = f.findIndex((_, i) => f[i] === 0x77 && f[i + 1] === 0x65 && f[i + 2] === 0x62 && f[i + 3] === 0x6d);
      f.set(ascii('mkv\0'), at);
      return f;
    };
    const REFUSED: [string, string, Uint8Array][] = [
      ['WebM signature and a web page', 'video/webm', join(Uint8Array.from(WEBM), page)],
      ['a WebM header and a web page instead of a Segment', 'video/webm', join(WEBM_HEADER, page)],
      ['another DocType than webm', 'video/webm', otherDocType()],
      ['a Segment of known size with a web page behind it', 'video/webm', join(webmFile(2000, 1, { knownSize: true }), page)],
      ['an ftyp signature and a web page', 'video/mp4', join(Uint8Array.from([0, 0, 0, 16]), ascii('ftypisom'), new Uint8Array(4), page)],
      ['an MP4 of an unknown brand', 'video/mp4', mp4File(2000, 1, ['qt  '])],
      ['an MP4 with a web page behind its boxes', 'video/mp4', join(mp4File(2000), page)],
    ];

    async function sendAndComplete(p: Client, mime: string, file: Uint8Array, preview = true): Promise<{ id: number; res: Response }> {
      const start = await startVideo(p, { mime, size: file.length });
      const base = `/api/studio/uploads/videos/${start.video.id}`;
      const part = await expectJson<UploadedPart>(await put(p, `${base}/parts/1?upload=${encodeURIComponent(start.upload)}`, file as Uint8Array<ArrayBuffer>), 200);
      if (preview) expect((await put(p, `${base}/preview`, webmFile(500), 'video/webm')).status).toBe(204);
      return { id: start.video.id, res: await p.post(`${base}/complete`, { upload: start.upload, parts: [part] }) };
    }

    it('complete refuses files that only begin like a video; the row and its files go, so refusals never use up the day\'s cap', async () => {
      const p = await performerOf(249);
      // Twice the list: more refusals than the show may have unfinished uploads.
      for (const [what, mime, file] of [...REFUSED, ...REFUSED]) {
        const { id, res } = await sendAndComplete(p, mime, file);
        await expectError(res, 422, 'validation_failed', ['file', 'unsupported_type']);
        expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM videos WHERE id = ?').bind(id).first('n'), what).toBe(0);
        expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM video_tags WHERE video_id = ?').bind(id).first('n'), what).toBe(0);
        // Its record of the people in it goes too (the next video may get the same id).
        expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM item_performers WHERE kind = 'video' AND item_id = ?").bind(id).first('n'), what).toBe(0);
        expect((await env.MEDIA.list({ prefix: `uploads/videos/${id}/` })).objects, what).toEqual([]);
      }
      expect(REFUSED.length * 2).toBeGreaterThan(UPLOAD_PENDING_MAX);
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM videos WHERE show_id = 249 AND status = 'pending'").first('n')).toBe(0);
      // Well-formed files of both types are published.
      for (const [mime, file] of [
        ['video/webm', webmFile(3000, 2, { knownSize: true })],
        ['video/webm', webmFile(3000, 3)],
        ['video/mp4', mp4File(3000)],
      ] as const) {
        const { id, res } = await sendAndComplete(p, mime, file);
        expect((await expectJson<{ video: { status: string } }>(res, 200)).video.status, mime).toBe('published');
        expect(await env.DB.prepare('SELECT mime, size FROM video_parts WHERE video_id = ?').bind(id).first()).toEqual({ mime, size: file.length });
        // Left out, the people it depicts are all the show's verified ones (the demo show's one record).
        const people = await env.DB.prepare("SELECT sp.show_id FROM item_performers ip JOIN show_performers sp ON sp.id = ip.show_performer_id WHERE ip.kind = 'video' AND ip.item_id = ?").bind(id).all();
        expect(people.results).toEqual([{ show_id: 249 }]);
      }
    });

    it('a preview is checked the same way', async () => {
      const p = await performerOf(250);
      const start = await startVideo(p);
      const base = `/api/studio/uploads/videos/${start.video.id}`;
      for (const [, mime, file] of REFUSED.filter(([, m]) => m === 'video/webm')) {
        await expectError(await put(p, `${base}/preview`, file as Uint8Array<ArrayBuffer>, mime), 422, 'validation_failed', ['preview', 'unsupported_type']);
      }
      expect(await env.MEDIA.head(`uploads/videos/${start.video.id}/1-preview`)).toBeNull();
      expect((await put(p, `${base}/preview`, mp4File(800), 'video/mp4')).status).toBe(204);
    });

    it('pictures and posters are checked whole: a signature followed by a web page is refused, nothing stored', async () => {
      const p = await performerOf(253);
      const pics = [
        { mime: 'image/png', size: 2000, width: 10, height: 10 },
        { mime: 'image/jpeg', size: 2000, width: 10, height: 10 },
        { mime: 'image/webp', size: 2000, width: 10, height: 10 },
      ];
      const { gallery: g } = await expectJson<{ gallery: { id: number } }>(await p.post('/api/studio/uploads/galleries', gallery({ pictures: pics })), 201);
      const base = `/api/studio/uploads/galleries/${g.id}/pictures`;
      const riff = (body: Uint8Array, size = body.length + 4) => join(ascii('RIFF'), Uint8Array.from([size & 0xff, (size >> 8) & 0xff, 0, 0]), ascii('WEBP'), body);
      const refused: [number, string, Uint8Array][] = [
        [1, 'image/png', join(Uint8Array.from(PNG), page)],
        [1, 'image/png', pngFile(300).subarray(0, 200)],
        [2, 'image/jpeg', join(Uint8Array.from(JPEG), page)],
        [2, 'image/jpeg', join(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 8]), page)],
        [3, 'image/webp', riff(join(ascii('HTML'), page))],
        [3, 'image/webp', riff(join(ascii('VP8 '), page), 9999)],
      ];
      for (const [idx, mime, file] of refused) {
        await expectError(await put(p, `${base}/${idx}/full`, file as Uint8Array<ArrayBuffer>, mime), 422, 'validation_failed', ['full', 'unsupported_type']);
      }
      expect((await env.MEDIA.list({ prefix: `uploads/galleries/${g.id}/` })).objects).toEqual([]);
      const v = await startVideo(p);
      await expectError(await put(p, `/api/studio/uploads/videos/${v.video.id}/poster`, join(Uint8Array.from(JPEG), page) as Uint8Array<ArrayBuffer>, 'image/jpeg'), 422, 'validation_failed', ['poster', 'unsupported_type']);
      // Well-formed ones are stored.
      expect((await put(p, `${base}/1/full`, pngFile(400), 'image/png')).status).toBe(204);
      expect((await put(p, `${base}/2/full`, jpegFile(400), 'image/jpeg')).status).toBe(204);
      expect((await put(p, `${base}/3/full`, riff(join(ascii('VP8 '), Uint8Array.from([4, 0, 0, 0, 1, 2, 3, 4]))) as Uint8Array<ArrayBuffer>, 'image/webp')).status).toBe(204);
      expect((await put(p, `/api/studio/uploads/videos/${v.video.id}/poster`, jpegFile(300), 'image/jpeg')).status).toBe(204);
    });

    it(`20 parallel chunks of one account: ${UPLOAD_CONCURRENT_MAX} are taken, the rest get 429 upload_busy at once; others are not held up`, async () => {
      const p = await performerOf(251);
      const start = await startVideo(p, { size: UPLOAD_CHUNK_BYTES * 20 });
      const q = `?upload=${encodeURIComponent(start.upload)}`;
      if (!p.cookie('XSRF-TOKEN')) await p.csrf();
      const headers = { 'CF-Connecting-IP': p.ip, 'X-XSRF-TOKEN': p.cookie('XSRF-TOKEN') ?? '', Cookie: p.cookieHeader, 'Content-Type': 'application/octet-stream' };
      // Bodies that arrive slowly: each request holds its place until its body is complete.
      const bodies = Array.from({ length: 20 }, () => new TransformStream<Uint8Array, Uint8Array>());
      const settled: (Response | null)[] = Array(20).fill(null);
      const answers = bodies.map((b, i) =>
        req(`/api/studio/uploads/videos/${start.video.id}/parts/${i + 1}${q}`, { method: 'PUT', headers, body: b.readable }).then((r) => (settled[i] = r)),
      );
      const deadline = Date.now() + 20_000;
      while (settled.filter(Boolean).length < 20 - UPLOAD_CONCURRENT_MAX) {
        if (Date.now() > deadline) throw new Error(`only ${settled.filter(Boolean).length} answered`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const early = settled.filter((r): r is Response => r !== null);
      expect(early.map((r) => r.status)).toEqual(Array(20 - UPLOAD_CONCURRENT_MAX).fill(429));
      expect(Number(early[0].headers.get('Retry-After'))).toBeGreaterThan(0);
      await expectError(early[0], 429, 'upload_busy');
      expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM leases WHERE key = ?').bind(`upload:${(await p.me())!.id}`).first('n')).toBe(UPLOAD_CONCURRENT_MAX);
      // Another performer sends meanwhile.
      const other = await performerOf(252);
      const o = await startVideo(other);
      expect((await put(other, `/api/studio/uploads/videos/${o.video.id}/parts/1?upload=${encodeURIComponent(o.upload)}`, webmFile(1000))).status).toBe(200);
      // The held bodies arrive: those requests store their chunks and give their places back.
      const waiting = bodies.filter((_, i) => settled[i] === null);
      expect(waiting).toHaveLength(UPLOAD_CONCURRENT_MAX);
      for (const b of waiting) {
        const w = b.writable.getWriter();
        await w.write(webmFile(1000));
        await w.close();
      }
      const all = await Promise.all(answers);
      expect(all.filter((r) => r.status === 200)).toHaveLength(UPLOAD_CONCURRENT_MAX);
      expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM leases WHERE key = ?').bind(`upload:${(await p.me())!.id}`).first('n')).toBe(0);
      expect((await put(p, `/api/studio/uploads/videos/${start.video.id}/parts/1${q}`, webmFile(1000))).status).toBe(200);
    });
  });
});
