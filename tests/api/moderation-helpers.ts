import { expect } from 'vitest';
import type { ModerationDecisionAnswer } from '../../src/shared/moderation';
import type { UploadedPart, VideoUploadStart } from '../../src/shared/uploads';
import { Client, expectJson, req } from './helpers';
import { webmFile, pngFile } from './media-files';
import type { Operator } from './operator-helpers';

// Uploads through the studio API as a performer's browser sends them, and an operator's review
// (issue 29 point 2): complete uploads wait until an operator approves them.

/** A binary PUT with the client's cookies and CSRF header. */
export async function putBytes(client: Client, path: string, body: Uint8Array<ArrayBuffer>, type: string): Promise<Response> {
  if (!client.cookie('XSRF-TOKEN')) await client.csrf();
  const headers = { 'CF-Connecting-IP': client.ip, 'X-XSRF-TOKEN': client.cookie('XSRF-TOKEN') ?? '', Cookie: client.cookieHeader, 'Content-Type': type };
  const res = await req(path, { method: 'PUT', headers, body });
  client.absorb(res);
  return res;
}

/** A complete one-part video of the performer's show (its review pending). */
export async function uploadVideo(p: Client, title: string, price = 30): Promise<{ id: number; ccid: string }> {
  const file = webmFile(1000, 7);
  const start = await expectJson<VideoUploadStart>(await p.post('/api/studio/uploads/videos', { title_en: title, title_de: `${title} de`, price, tags: [], mime: 'video/webm', size: file.length, duration: 10 }), 201);
  const base = `/api/studio/uploads/videos/${start.video.id}`;
  const part = await expectJson<UploadedPart>(await putBytes(p, `${base}/parts/1?upload=${encodeURIComponent(start.upload)}`, file, 'application/octet-stream'), 200);
  expect((await putBytes(p, `${base}/preview`, webmFile(300, 8), 'video/webm')).status).toBe(204);
  await expectJson(await p.post(`${base}/complete`, { upload: start.upload, parts: [part] }), 200);
  return { id: start.video.id, ccid: start.video.ccid };
}

/** A complete gallery of two pictures of the performer's show (its review pending). */
export async function uploadGallery(p: Client, title: string, price = 20): Promise<{ id: number }> {
  const pictures = [
    { mime: 'image/png', size: 2000, width: 1200, height: 800 },
    { mime: 'image/png', size: 2000, width: 800, height: 1200 },
  ];
  const { gallery } = await expectJson<{ gallery: { id: number } }>(await p.post('/api/studio/uploads/galleries', { title_en: title, title_de: `${title} de`, price, pictures }), 201);
  const base = `/api/studio/uploads/galleries/${gallery.id}`;
  for (const idx of [1, 2]) {
    expect((await putBytes(p, `${base}/pictures/${idx}/full`, pngFile(2000, idx), 'image/png')).status).toBe(204);
    expect((await putBytes(p, `${base}/pictures/${idx}/thumb`, pngFile(300, idx), 'image/png')).status).toBe(204);
  }
  await expectJson(await p.post(`${base}/complete`), 200);
  return { id: gallery.id };
}

/** An operator's decision on an upload; answers the response. */
export function decide(op: Operator, kind: 'video' | 'gallery', id: number, decision: 'approve' | 'reject', reason?: string): Promise<Response> {
  return op.client.post(`/api/operator/moderation/${kind}/${id}`, reason === undefined ? { decision } : { decision, reason });
}

/** Approves an upload (it reaches the store). */
export async function approve(op: Operator, kind: 'video' | 'gallery', id: number): Promise<void> {
  expect(await expectJson<ModerationDecisionAnswer>(await decide(op, kind, id, 'approve'), 200)).toEqual({ kind, id, review: 'approved' });
}
