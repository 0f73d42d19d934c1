import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { mediaArt, showArt } from './art';

const ID = /^\d{1,9}$/;
const IMMUTABLE = 'public, max-age=86400, stale-while-revalidate=604800';

function svg(body: string): Response {
  return new Response(body, { headers: { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': IMMUTABLE } });
}

/** /img: generated placeholder art, deterministic SVGs drawn from the id, so previews need no storage. */
export const imageRoutes = new Hono<AppEnv>()
  .get('/show/:id/:file{[0-9]{1,2}\\.svg}', (c) => {
    const id = c.req.param('id');
    const index = Number.parseInt(c.req.param('file'), 10);
    if (!ID.test(id) || index < 1 || index > 12) return c.notFound();
    return svg(showArt({ showId: Number(id), index, palette: (Number(id) * 7 + index) % 12 }));
  })
  .get('/:kind{video|gallery}/:file{[0-9]{1,9}\\.svg}', (c) => {
    const id = Number.parseInt(c.req.param('file'), 10);
    return svg(mediaArt({ kind: c.req.param('kind') as 'video' | 'gallery', id, palette: id % 12 }));
  });

/** /api/videos/image: the incentive panel's picture (GET /api/videos/image/{id}/1). */
export const videoImageRoutes = new Hono<AppEnv>().get('/:id{[0-9]{1,9}}/:n{[0-9]{1,2}}', (c) => {
  const id = Number(c.req.param('id'));
  return svg(mediaArt({ kind: 'video', id, palette: id % 12 }));
});
