import { Hono, type Context } from 'hono';
import { BUILD_ID } from '../../../shared/build';
import type { AppEnv } from '../../env';
import { geo } from '../../middleware/geo';
import { mediaArt, showArt } from './art';
import { itemShowId } from './images.repo';
import { showJpeg } from './raster';

const ID = /^\d{1,9}$/;
// The art is drawn from the id alone: cached for 30 days, then revalidated by its ETag (a new
// drawing, e.g. after a deploy that changes it, answers 200 with a new tag).
const LONG = 'public, max-age=2592000, stale-while-revalidate=86400';

/** FNV-1a of the drawing: a strong validator that needs no async digest. */
function etagOf(body: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= body.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `"${BUILD_ID}-${(h >>> 0).toString(36)}-${body.length.toString(36)}"`;
}

function cached(c: Context<AppEnv>, etag: string, body: () => BodyInit, type: string): Response {
  const headers = { 'Cache-Control': LONG, ETag: etag };
  const match = c.req.header('If-None-Match');
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return new Response(null, { status: 304, headers });
  return new Response(body(), { headers: { ...headers, 'Content-Type': type } });
}

/** The data centre's HTTP cache (absent where the runtime has none). */
const edgeCache = (): Cache | undefined => (globalThis as { caches?: { default?: Cache } }).caches?.default;

const svg = (c: Context<AppEnv>, body: string) => cached(c, etagOf(body), () => body, 'image/svg+xml; charset=utf-8');

/**
 * Geo-blocking: whether the picture belongs to a show hidden from the request's place (the show's
 * page answers 404 there, so does its picture). No query for a place nothing is hidden from.
 */
async function hiddenHere(c: Context<AppEnv>, show: number | { kind: 'video' | 'gallery'; id: number }): Promise<boolean> {
  const hidden = await c.var.hiddenShows();
  if (hidden.length === 0) return false;
  const showId = typeof show === 'number' ? show : await itemShowId(c.env.DB, show.kind, show.id);
  return showId !== null && hidden.includes(showId);
}

/** A show preview's id and index from the path; null when out of range or hidden from the place. */
async function preview(c: Context<AppEnv>): Promise<{ showId: number; index: number; palette: number } | null> {
  const id = c.req.param('id') ?? '';
  const index = Number.parseInt(c.req.param('file') ?? '', 10);
  if (!ID.test(id) || index < 1 || index > 12 || (await hiddenHere(c, Number(id)))) return null;
  return { showId: Number(id), index, palette: (Number(id) * 7 + index) % 12 };
}

/** The last few hundred JPEG previews this isolate served (each is drawn from its id alone). */
const isolateJpegs = new Map<string, Uint8Array<ArrayBuffer>>();
const ISOLATE_JPEGS_MAX = 300;

/**
 * A preview's JPEG, drawn and encoded once per data centre: the isolate keeps the last few hundred,
 * the edge's cache (keyed by the URL and the build) the rest.
 */
async function jpegBytes(c: Context<AppEnv>, p: { showId: number; index: number; palette: number }, large: boolean): Promise<Uint8Array<ArrayBuffer>> {
  const name = `${p.showId}/${p.index}-${large ? 'l' : 's'}`;
  const kept = isolateJpegs.get(name);
  if (kept) return kept;
  const key = new Request(new URL(`/img/show/${name}.jpg?b=${BUILD_ID}`, c.req.url));
  const cache = edgeCache();
  const edge = await cache?.match(key);
  const bytes = edge ? new Uint8Array(await edge.arrayBuffer()) : showJpeg({ ...p, large });
  if (cache && !edge) c.executionCtx.waitUntil(cache.put(key, new Response(bytes, { headers: { 'Cache-Control': LONG, 'Content-Type': 'image/jpeg' } })));
  if (isolateJpegs.size >= ISOLATE_JPEGS_MAX) isolateJpegs.delete(isolateJpegs.keys().next().value as string);
  isolateJpegs.set(name, bytes);
  return bytes;
}

/** A show preview as a JPEG (400x300, `large` 800x600). */
async function jpeg(c: Context<AppEnv>, large: boolean): Promise<Response> {
  const p = await preview(c);
  if (!p) return c.notFound();
  // The drawing depends on the id and the build alone (the art's code is part of the build).
  const etag = `"${BUILD_ID}-j${p.showId}-${p.index}${large ? 'l' : 's'}"`;
  const bytes = await jpegBytes(c, p, large);
  return cached(c, etag, () => bytes, 'image/jpeg');
}

/**
 * /img: generated placeholder art drawn from the id, so previews need no storage. The show
 * previews the pages use are JPEGs (raster.ts: decoded off the browser's main thread, like real
 * photos); the same pictures as SVG stay for the media covers and older links.
 */
export const imageRoutes = new Hono<AppEnv>()
  .use(geo)
  .get('/show/:id/:file{[0-9]{1,2}\\.jpg}', (c) => jpeg(c, false))
  .get('/show/:id/:file{[0-9]{1,2}-l\\.jpg}', (c) => jpeg(c, true))
  .get('/show/:id/:file{[0-9]{1,2}\\.svg}', async (c) => {
    const p = await preview(c);
    return p ? svg(c, showArt(p)) : c.notFound();
  })
  .get('/:kind{video|gallery}/:file{[0-9]{1,9}\\.svg}', async (c) => {
    const id = Number.parseInt(c.req.param('file'), 10);
    const kind = c.req.param('kind') as 'video' | 'gallery';
    if (await hiddenHere(c, { kind, id })) return c.notFound();
    return svg(c, mediaArt({ kind, id, palette: id % 12 }));
  });

/** /api/videos/image: the incentive panel's picture (GET /api/videos/image/{id}/1). */
export const videoImageRoutes = new Hono<AppEnv>().use(geo).get('/:id{[0-9]{1,9}}/:n{[0-9]{1,2}}', async (c) => {
  const id = Number(c.req.param('id'));
  if (await hiddenHere(c, { kind: 'video', id })) return c.notFound();
  return svg(c, mediaArt({ kind: 'video', id, palette: id % 12 }));
});
