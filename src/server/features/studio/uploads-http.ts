import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { sniffMime, UPLOAD_CONCURRENT_MAX, UPLOAD_PRICE_MAX, UPLOAD_TITLE_MAX } from '../../../shared/uploads';
import type { AppEnv } from '../../env';
import { readCappedBody } from '../../lib/body';
import { ApiError } from '../../lib/errors';
import { takeLease } from '../../lib/leases.repo';
import { isPicture } from './upload-containers';

// What the upload routes share: who may upload, ids from the path, capped and sniffed bodies,
// and the fields every item has (titles in both languages, a price).

/** 401 logged out, 403 not_performer for members without a show (as the other /api/studio calls). */
export const requirePerformer = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  if (user.performer_show === null) throw new ApiError(403, 'not_performer');
  c.header('Cache-Control', 'no-store');
  await next();
});

export const showOf = (c: Context<AppEnv>): number => c.get('user')?.performer_show ?? 0;
export const idParam = (c: Context<AppEnv>, name = 'id'): number => {
  const raw = c.req.param(name) ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw new ApiError(404, 'not_found');
  return Number(raw);
};

export const videoKeys = (id: number) => ({ media: `uploads/videos/${id}/1`, preview: `uploads/videos/${id}/1-preview`, poster: `uploads/videos/${id}/poster` });

/** How long an upload body may hold its place if its release is lost (a 5 MiB chunk takes seconds). */
const UPLOAD_LEASE_S = 120;

/**
 * Runs `work` (reading and storing one upload body) holding one of the account's
 * UPLOAD_CONCURRENT_MAX places, taken before the body is read; 429 upload_busy beyond them.
 */
export async function withUploadPlace<T>(c: Context<AppEnv>, work: () => Promise<T>): Promise<T> {
  const lease = await takeLease(c.env.DB, `upload:${c.get('user')?.id ?? 0}`, UPLOAD_CONCURRENT_MAX, UPLOAD_LEASE_S);
  if (!lease.ok) throw new ApiError(429, 'upload_busy', undefined, { 'Retry-After': String(Math.min(lease.retryAfter, 5)) });
  try {
    return await work();
  } finally {
    await lease.release().catch(() => undefined);
  }
}

/** The request's bytes, at most `max` (413 above), never empty (422). */
export async function bytesOf(c: Context<AppEnv>, max: number, field: string): Promise<Uint8Array> {
  const body = new Uint8Array(await readCappedBody(c.req.raw, max));
  if (body.byteLength === 0) throw new ApiError(422, 'validation_failed', { [field]: ['required'] });
  return body;
}

/** A body of one of `types` (and of its declared Content-Type) by its first bytes, a picture by its structure: its type. */
export function typeOf(c: Context<AppEnv>, body: Uint8Array, types: readonly string[], field: string): string {
  const declared = (c.req.header('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  const sniffed = sniffMime(body.subarray(0, 16));
  if (!sniffed || !types.includes(sniffed) || declared !== sniffed) throw new ApiError(422, 'validation_failed', { [field]: ['unsupported_type'] });
  // A picture is checked whole (it is in memory): a signature followed by anything is refused.
  if (sniffed.startsWith('image/') && !isPicture(sniffed, body)) throw new ApiError(422, 'validation_failed', { [field]: ['unsupported_type'] });
  return sniffed;
}

const title = z.string().trim().min(1, 'required').max(UPLOAD_TITLE_MAX, 'too_long');
export const titles = { title_en: title, title_de: title };
export const price = z.number().int('integer_required').min(0, 'too_small').max(UPLOAD_PRICE_MAX, 'too_large');
