import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { GALLERY_PICTURES_MAX, UPLOAD_PICTURE_MAX_BYTES, UPLOAD_PICTURE_TYPES } from '../../../shared/store';
import { UPLOAD_THUMB_MAX_BYTES, type GalleryUploadStart } from '../../../shared/uploads';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { bytesOf, idParam, price, showOf, titles, typeOf, withUploadPlace } from './uploads-http';
import { insertPendingGallery, pendingGalleryPictures, publishGallery } from './uploads.repo';
import { nowSeconds } from '../../lib/clock';
import { itemPeopleSchema } from '../../../shared/records';
import { checkItemPeople } from '../applications/records.service';

// /api/studio/uploads/galleries: POST declares a gallery and its pictures (type, size and
// dimensions of each; 422 before anything is written), PUT /{id}/pictures/{idx}/{full|thumb}
// sends each picture in its two sizes (the thumbnail made in the browser, same type), POST
// /{id}/complete checks every object is there and publishes the gallery.

const dimension = z.number().int('integer_required').min(1, 'too_small').max(20_000, 'too_large');

const galleryBody = z
  .object({
    ...titles,
    price,
    pictures: z
      .array(
        z
          .object({
            mime: z.string().refine((m) => (UPLOAD_PICTURE_TYPES as readonly string[]).includes(m), 'unsupported_type'),
            size: z.number().int('integer_required').min(1, 'required').max(UPLOAD_PICTURE_MAX_BYTES, 'too_large'),
            width: dimension,
            height: dimension,
          })
          .strict(),
      )
      .min(1, 'required')
      .max(GALLERY_PICTURES_MAX, 'too_many'),
    performers: itemPeopleSchema.optional(),
  })
  .strict();

export const galleryUploadRoutes = new Hono<AppEnv>()
  .post('/', zValidator('json', galleryBody, validationHook), async (c) => {
    const body = c.req.valid('json');
    const people = await checkItemPeople(c.env.DB, showOf(c), body.performers);
    const gallery = await insertPendingGallery(c.env.DB, {
      showId: showOf(c),
      titleEn: body.title_en,
      titleDe: body.title_de,
      price: body.price,
      palette: crypto.getRandomValues(new Uint8Array(1))[0] % 12,
      pictures: body.pictures,
      people,
      now: nowSeconds(),
    });
    if (!gallery) throw new ApiError(429, 'too_many_pending', undefined, { 'Retry-After': '3600' });
    return c.json<GalleryUploadStart>({ gallery }, 201);
  })
  .put('/:id/pictures/:idx/:size{full|thumb}', async (c) => {
    const id = idParam(c);
    const idx = idParam(c, 'idx');
    const size = c.req.param('size') as 'full' | 'thumb';
    const pictures = await pendingGalleryPictures(c.env.DB, showOf(c), id);
    const picture = pictures?.find((p) => p.idx === idx);
    if (!picture) throw new ApiError(404, 'not_found');
    return withUploadPlace(c, async () => {
      const bytes = await bytesOf(c, size === 'full' ? UPLOAD_PICTURE_MAX_BYTES : UPLOAD_THUMB_MAX_BYTES, size);
      // Both sizes have the declared type (the row's mime is what the store answers with).
      typeOf(c, bytes, [picture.mime], size);
      await c.env.MEDIA.put(size === 'full' ? picture.full_key : picture.thumb_key, bytes, { httpMetadata: { contentType: picture.mime } });
      return c.body(null, 204);
    });
  })
  .post('/:id/complete', async (c) => {
    const id = idParam(c);
    const showId = showOf(c);
    const pictures = await pendingGalleryPictures(c.env.DB, showId, id);
    if (!pictures) throw new ApiError(404, 'not_found');
    const heads = await Promise.all(pictures.flatMap((p) => [c.env.MEDIA.head(p.full_key), c.env.MEDIA.head(p.thumb_key)]));
    if (pictures.some((_, i) => !heads[2 * i] || !heads[2 * i + 1])) throw new ApiError(422, 'validation_failed', { pictures: ['missing'] });
    await publishGallery(c.env.DB, showId, id);
    return c.json({ gallery: { id, status: 'published', review: 'pending' } });
  });
