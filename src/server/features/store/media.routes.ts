import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { takeLease } from '../../lib/leases.repo';
import { perAddress } from '../../lib/limits';
import { clientIp } from '../session/session.service';
import { findPartObject, findPictureObject, findPosterKey, type MediaObject } from './purchases.repo';
import { pathId, seerOf } from './store-params';

// /media: the store's files, streamed by the worker from R2 after it checks who may have them
// (issue 13). Whole parts and full pictures are checked on every request (Range requests
// included); previews, posters and thumbnails are public. No bucket URL ever leaves the worker.
// Nothing of a show hidden from the request's place (geo-blocking) is found: 404, as its pages.
// Video bodies hold one of MEDIA_STREAMS_MAX places of their account (of their address for
// visitors) while they stream, so one player in a Range loop cannot tie up the worker for others.

const PRIVATE = 'private, no-cache';
const PUBLIC = 'public, max-age=86400';

type ByteRange = { offset: number; length: number };

/** Video bodies one account (or visitor address) may be sent at the same time (a player uses one or two). */
export const MEDIA_STREAMS_MAX = 6;
/** How long a stream holds its place if its release is lost. */
const STREAM_LEASE_S = 600;

/** The key of the streams the asking account (or visitor address) has in flight. */
function streamsKey(c: Context<AppEnv>): { key: string; limit: number } {
  const user = c.get('user');
  return user ? { key: `streams:user:${user.id}`, limit: MEDIA_STREAMS_MAX } : { key: `streams:ip:${clientIp(c)}`, limit: perAddress(c.env, MEDIA_STREAMS_MAX) };
}

/** The object's body passed through, its place given back when it is sent or the client goes. */
function holdingPlace(c: Context<AppEnv>, body: ReadableStream, length: number, release: () => Promise<void>): ReadableStream {
  const { readable, writable } = new FixedLengthStream(length);
  const done = () => c.executionCtx.waitUntil(release().catch(() => undefined));
  body.pipeTo(writable).then(done, done);
  return readable;
}

/**
 * The byte range of a `Range` header for an object of `size` bytes: null to send it whole (no
 * header, or one this server does not serve: several ranges, other units), 'unsatisfiable' for a
 * range that starts beyond the end (or an empty suffix).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { offset: start, length: Math.min(end, size - 1) - start + 1 };
}

/** True when an If-None-Match header names this ETag (or '*'). */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * Streams one R2 object with Range (206/416), ETag and If-None-Match (304) handling. `counted`: a
 * body holds one of the asker's stream places (429 media_busy with Retry-After beyond them).
 */
export async function streamObject(c: Context<AppEnv>, key: string, mime: string | null, cache: string, counted = false): Promise<Response> {
  const head = await c.env.MEDIA.head(key);
  if (!head) throw new ApiError(404, 'not_found');
  const etag = head.httpEtag;
  const type = mime ?? head.httpMetadata?.contentType ?? 'application/octet-stream';
  const headers = new Headers({ 'Accept-Ranges': 'bytes', ETag: etag, 'Cache-Control': cache, 'Content-Type': type });
  if (notModified(c.req.header('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  const range = parseRange(c.req.header('Range'), head.size);
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${head.size}`);
    return new Response(null, { status: 416, headers });
  }
  const headOnly = c.req.method === 'HEAD';
  let release: (() => Promise<void>) | null = null;
  if (counted && !headOnly) {
    const place = streamsKey(c);
    const lease = await takeLease(c.env.DB, place.key, place.limit, STREAM_LEASE_S);
    if (!lease.ok) throw new ApiError(429, 'media_busy', undefined, { 'Retry-After': String(Math.min(lease.retryAfter, 5)) });
    release = lease.release;
  }
  const object = await c.env.MEDIA.get(key, range ? { range } : {}).catch(async (e: unknown) => {
    await release?.();
    throw e;
  });
  if (!object) {
    await release?.();
    throw new ApiError(404, 'not_found');
  }
  const length = range ? range.length : object.size;
  const body = headOnly ? null : release ? holdingPlace(c, object.body, length, release) : object.body;
  headers.set('Content-Length', String(length));
  if (!range) return new Response(body, { status: 200, headers });
  headers.set('Content-Range', `bytes ${range.offset}-${range.offset + range.length - 1}/${object.size}`);
  return new Response(body, { status: 206, headers });
}

/** 403 unless the member may have the owner-only object. */
function ownerOnly(object: MediaObject | null): MediaObject {
  if (!object) throw new ApiError(404, 'not_found');
  if (!object.owned) throw new ApiError(403, 'store.not_owned');
  return object;
}

const userOf = (c: Context<AppEnv>) => c.get('user')?.id ?? null;
/** Public files, unless the asker may see unapproved items (a performer, an operator): never kept by a shared cache for them. */
const publicFor = (c: Context<AppEnv>) => (seerOf(c) === 0 ? PUBLIC : PRIVATE);

/** /media (its refusals are JSON like the API's, not error pages: players and images read them). */
export const mediaRoutes = new Hono<AppEnv>()
  .get('/videos/:id/poster', async (c) => {
    const id = pathId(c.req.param('id'));
    const key = id === null ? undefined : await findPosterKey(c.env.DB, id, seerOf(c), await c.var.hiddenShows());
    if (id === null || key === undefined) throw new ApiError(404, 'not_found');
    // Without an uploaded poster: the generated art. An upload's type is the object's own.
    if (key === null) return c.redirect(`/img/video/${id}.svg`, 302);
    return streamObject(c, key, null, publicFor(c));
  })
  .get('/videos/:id/:part/preview', async (c) => {
    const id = pathId(c.req.param('id'));
    const part = pathId(c.req.param('part'));
    const object = id === null || part === null ? null : await findPartObject(c.env.DB, id, part, 'preview', userOf(c), seerOf(c), await c.var.hiddenShows());
    if (!object) throw new ApiError(404, 'not_found');
    return streamObject(c, object.key, object.mime, publicFor(c), true);
  })
  .get('/videos/:id/:part', async (c) => {
    const id = pathId(c.req.param('id'));
    const part = pathId(c.req.param('part'));
    const object = ownerOnly(id === null || part === null ? null : await findPartObject(c.env.DB, id, part, 'full', userOf(c), seerOf(c), await c.var.hiddenShows()));
    return streamObject(c, object.key, object.mime, PRIVATE, true);
  })
  .get('/galleries/:id/:idx/:size{thumb|full}', async (c) => {
    const id = pathId(c.req.param('id'));
    const idx = pathId(c.req.param('idx'));
    const size = c.req.param('size') as 'thumb' | 'full';
    const found = id === null || idx === null ? null : await findPictureObject(c.env.DB, id, idx, size, userOf(c), seerOf(c), await c.var.hiddenShows());
    if (size === 'thumb') {
      if (!found) throw new ApiError(404, 'not_found');
      return streamObject(c, found.key, found.mime, publicFor(c));
    }
    const object = ownerOnly(found);
    // A free gallery's pictures are the same for everyone.
    return streamObject(c, object.key, object.mime, object.price === 0 ? publicFor(c) : PRIVATE);
  });

mediaRoutes.onError((err, c) => {
  if (err instanceof ApiError) return c.json({ message: err.message }, err.status as 403 | 404 | 429, err.headers);
  console.error(JSON.stringify({ type: 'server_error', requestId: c.get('requestId'), error: String(err) }));
  return c.json({ message: 'server_error' }, 500);
});
