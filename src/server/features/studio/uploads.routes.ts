import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { UPLOAD_VIDEO_MAX_BYTES, UPLOAD_VIDEO_TYPES } from '../../../shared/store';
import {
  sniffMime,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_DURATION_MAX,
  UPLOAD_MAX_CHUNKS,
  UPLOAD_POSTER_MAX_BYTES,
  UPLOAD_PREVIEW_MAX_BYTES,
  UPLOAD_TAGS_MAX,
  type StudioUploadsAnswer,
  type UploadedPart,
  type VideoUploadStart,
} from '../../../shared/uploads';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { galleryUploadRoutes } from './uploads-galleries.routes';
import { isVideoContainer, readBytes, type ReadAt } from './upload-containers';
import { bytesOf, idParam, price, requirePerformer, showOf, titles, typeOf, videoKeys, withUploadPlace } from './uploads-http';
import { deletePendingVideo, insertPendingVideo, listOwnUploads, pendingVideo, publishVideo, tagIdsBySlug } from './uploads.repo';
import { nowSeconds } from '../../lib/clock';
import { itemPeopleSchema } from '../../../shared/records';
import { checkItemPeople, verifiedPeople } from '../applications/records.service';
import { withContentAppeals } from '../restrictions/content-appeals.service';

// /api/studio/uploads: a performer's own videos and galleries. A video: POST /videos declares it
// (type, size, duration, titles, price, tags; 422 before anything is written), its bytes go up
// as an R2 multipart upload (PUT /videos/{id}/parts/{n}?upload=, chunks of UPLOAD_CHUNK_BYTES,
// any chunk may be sent again), the browser-made preview and poster with PUT, and POST
// /videos/{id}/complete checks the files (the container, not only its first bytes) and publishes
// the video; a file refused there is deleted with its row. An account sends at most
// UPLOAD_CONCURRENT_MAX bodies at once. Galleries: uploads-galleries.routes.ts.

function randomCcid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `u${[...bytes].map((b) => b.toString(36).padStart(2, '0')).join('')}`;
}

const videoBody = z
  .object({
    ...titles,
    price,
    tags: z.array(z.string().max(64, 'too_long')).max(UPLOAD_TAGS_MAX, 'too_many').default([]),
    mime: z.string().refine((m) => (UPLOAD_VIDEO_TYPES as readonly string[]).includes(m), 'unsupported_type'),
    size: z.number().int('integer_required').min(1, 'required').max(UPLOAD_VIDEO_MAX_BYTES, 'too_large'),
    duration: z.number().positive('required').max(UPLOAD_DURATION_MAX, 'too_long'),
    performers: itemPeopleSchema.optional(),
  })
  .strict();

const completeBody = z
  .object({
    upload: z.string().min(1).max(1024),
    parts: z
      .array(z.object({ part: z.number().int().min(1).max(UPLOAD_MAX_CHUNKS), etag: z.string().min(1).max(256) }).strict())
      .min(1)
      .max(UPLOAD_MAX_CHUNKS),
  })
  .strict();

const UPLOAD_ID = /^[\w.~+/=-]{1,1024}$/;

/** Ranged reads of an R2 object (the container check reads only its headers). */
const readObject =
  (bucket: R2Bucket, key: string): ReadAt =>
  async (offset, length) => {
    const part = await bucket.get(key, { range: { offset, length } });
    return part ? new Uint8Array(await part.arrayBuffer()) : new Uint8Array(0);
  };

export const uploadsRoutes = new Hono<AppEnv>()
  .use(requirePerformer)
  // Each item with its appeal against a removal or refusal (restrictions feature).
  .get('/', async (c) => c.json<StudioUploadsAnswer>({ ...(await withContentAppeals(c.env.DB, showOf(c), await listOwnUploads(c.env.DB, showOf(c)))), people: await verifiedPeople(c.env.DB, showOf(c)) }))
  .post('/videos', zValidator('json', videoBody, validationHook), async (c) => {
    const body = c.req.valid('json');
    const slugs = [...new Set(body.tags)];
    const tagIds = await tagIdsBySlug(c.env.DB, slugs);
    const unknown = slugs.filter((s) => !tagIds.has(s));
    if (unknown.length) throw new ApiError(422, 'validation_failed', { tags: ['unknown_tag'] });
    const people = await checkItemPeople(c.env.DB, showOf(c), body.performers);
    const video = await insertPendingVideo(c.env.DB, {
      showId: showOf(c),
      ccid: randomCcid(),
      titleEn: body.title_en,
      titleDe: body.title_de,
      price: body.price,
      duration: Math.max(1, Math.round(body.duration)),
      palette: crypto.getRandomValues(new Uint8Array(1))[0] % 12,
      tagIds: [...tagIds.values()],
      people,
      now: nowSeconds(),
    });
    if (!video) throw new ApiError(429, 'too_many_pending', undefined, { 'Retry-After': '3600' });
    const upload = await c.env.MEDIA.createMultipartUpload(videoKeys(video.id).media, { httpMetadata: { contentType: body.mime } });
    return c.json<VideoUploadStart>({ video, upload: upload.uploadId, chunk_bytes: UPLOAD_CHUNK_BYTES }, 201);
  })
  .put('/videos/:id/parts/:n', async (c) => {
    const id = idParam(c);
    const n = idParam(c, 'n');
    const upload = c.req.query('upload') ?? '';
    if (n < 1 || n > UPLOAD_MAX_CHUNKS) throw new ApiError(422, 'validation_failed', { part: ['out_of_range'] });
    if (!UPLOAD_ID.test(upload)) throw new ApiError(422, 'validation_failed', { upload: ['required'] });
    if (!(await pendingVideo(c.env.DB, showOf(c), id))) throw new ApiError(404, 'not_found');
    return withUploadPlace(c, async () => {
      const bytes = await bytesOf(c, UPLOAD_CHUNK_BYTES, 'part');
      try {
        const part = await c.env.MEDIA.resumeMultipartUpload(videoKeys(id).media, upload).uploadPart(n, bytes);
        return c.json<UploadedPart>({ part: part.partNumber, etag: part.etag });
      } catch {
        throw new ApiError(404, 'upload_not_found');
      }
    });
  })
  .put('/videos/:id/:file{preview|poster}', async (c) => {
    const id = idParam(c);
    const preview = c.req.param('file') === 'preview';
    if (!(await pendingVideo(c.env.DB, showOf(c), id))) throw new ApiError(404, 'not_found');
    return withUploadPlace(c, async () => {
      const field = c.req.param('file');
      const bytes = await bytesOf(c, preview ? UPLOAD_PREVIEW_MAX_BYTES : UPLOAD_POSTER_MAX_BYTES, field);
      const mime = typeOf(c, bytes, preview ? UPLOAD_VIDEO_TYPES : ['image/jpeg'], field);
      if (preview && !(await isVideoContainer(mime, readBytes(bytes), bytes.length))) throw new ApiError(422, 'validation_failed', { [field]: ['unsupported_type'] });
      const keys = videoKeys(id);
      await c.env.MEDIA.put(preview ? keys.preview : keys.poster, bytes, { httpMetadata: { contentType: mime } });
      return c.body(null, 204);
    });
  })
  .post('/videos/:id/complete', zValidator('json', completeBody, validationHook), async (c) => {
    const id = idParam(c);
    const showId = showOf(c);
    const video = await pendingVideo(c.env.DB, showId, id);
    if (!video) throw new ApiError(404, 'not_found');
    const { upload, parts } = c.req.valid('json');
    const keys = videoKeys(id);
    if (!UPLOAD_ID.test(upload)) throw new ApiError(422, 'validation_failed', { upload: ['required'] });
    try {
      const sorted = [...new Map(parts.map((p) => [p.part, p])).values()].sort((a, b) => a.part - b.part);
      await c.env.MEDIA.resumeMultipartUpload(keys.media, upload).complete(sorted.map((p) => ({ partNumber: p.part, etag: p.etag })));
    } catch {
      // A complete sent again after its answer was lost: the object is already there.
      if (!(await c.env.MEDIA.head(keys.media))) throw new ApiError(422, 'validation_failed', { parts: ['upload_incomplete'] });
    }
    const head = await c.env.MEDIA.get(keys.media, { range: { offset: 0, length: 16 } });
    const declared = head?.httpMetadata?.contentType ?? '';
    const sniffed = head ? sniffMime(new Uint8Array(await head.arrayBuffer())) : null;
    const tooLarge = !!head && head.size > UPLOAD_VIDEO_MAX_BYTES;
    if (!head || tooLarge || sniffed !== declared || !(await isVideoContainer(declared, readObject(c.env.MEDIA, keys.media), head.size))) {
      // Not what was declared (or too big): nothing of it can be published, so its files and its
      // row go, and with the row its place among the show's unfinished uploads of the day.
      await c.env.MEDIA.delete([keys.media, keys.preview, keys.poster]);
      await deletePendingVideo(c.env.DB, showId, id);
      throw new ApiError(422, 'validation_failed', { file: [tooLarge ? 'too_large' : 'unsupported_type'] });
    }
    const [preview, poster] = await Promise.all([c.env.MEDIA.head(keys.preview), c.env.MEDIA.head(keys.poster)]);
    if (!preview) throw new ApiError(422, 'validation_failed', { preview: ['required'] });
    await publishVideo(c.env.DB, showId, id, { mediaKey: keys.media, previewKey: keys.preview, posterKey: poster ? keys.poster : null, mime: declared, size: head.size });
    return c.json({ video: { ...video, status: 'published' } });
  })
  .route('/galleries', galleryUploadRoutes);
