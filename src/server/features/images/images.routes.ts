import { Hono, type Context } from 'hono';
import { BUILD_ID } from '../../../shared/build';
import type { AppEnv } from '../../env';
import { mediaArt, showArt } from './art';

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

function svg(c: Context<AppEnv>, body: string): Response {
  const etag = etagOf(body);
  const headers = { 'Cache-Control': LONG, ETag: etag };
  const match = c.req.header('If-None-Match');
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, 'Content-Type': 'image/svg+xml; charset=utf-8' } });
}

/** /img: generated placeholder art, deterministic SVGs drawn from the id, so previews need no storage. */
export const imageRoutes = new Hono<AppEnv>()
  .get('/show/:id/:file{[0-9]{1,2}\\.svg}', (c) => {
    const id = c.req.param('id');
    const index = Number.parseInt(c.req.param('file'), 10);
    if (!ID.test(id) || index < 1 || index > 12) return c.notFound();
    return svg(c, showArt({ showId: Number(id), index, palette: (Number(id) * 7 + index) % 12 }));
  })
  .get('/:kind{video|gallery}/:file{[0-9]{1,9}\\.svg}', (c) => {
    const id = Number.parseInt(c.req.param('file'), 10);
    return svg(c, mediaArt({ kind: c.req.param('kind') as 'video' | 'gallery', id, palette: id % 12 }));
  });

/** /api/videos/image: the incentive panel's picture (GET /api/videos/image/{id}/1). */
export const videoImageRoutes = new Hono<AppEnv>().get('/:id{[0-9]{1,9}}/:n{[0-9]{1,2}}', (c) => {
  const id = Number(c.req.param('id'));
  return svg(c, mediaArt({ kind: 'video', id, palette: id % 12 }));
});
