import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { readCappedBody, readJson, refuseControlCharacters } from '../lib/body';

const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);
// Payment postbacks are the provider's format, checked by signature on the raw bytes.
// The chat end beacons send their token or session id as text/plain (sendBeacon cannot send JSON types); the route parses and checks it.
const RAW_BODY_PREFIXES = ['/api/billing/callback/', '/api/chatsession/end/', '/api/chat/external/end'];
// Studio uploads send media bytes (a video chunk, a preview, a poster, a picture): those routes
// read the body themselves, capped at their own limits (src/server/features/studio/uploads-http.ts).
const MEDIA_UPLOAD = /^\/api\/studio\/uploads\/(?:videos\/\d{1,9}\/(?:parts\/\d{1,9}|preview|poster)|galleries\/\d{1,9}\/pictures\/\d{1,9}\/(?:full|thumb))$/;
// Client error logs carry stack traces: lines and tabs are their content.
const MULTILINE_PATHS = new Set(['/api/log', '/api/user/log']);

/**
 * Every request body, page or /api, is capped (413 before parsing) and buffered once; the buffer
 * replaces the raw request so later readers (validators, forms, signature checks) see the same
 * bytes. /api writes must carry well-formed JSON (or nothing) whose strings hold no control
 * characters, else 422 before any route runs: a route added later cannot skip this.
 */
export const bodyGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (NO_BODY.has(c.req.method)) return next();
  if (c.req.method === 'PUT' && MEDIA_UPLOAD.test(c.req.path)) return next();
  // A performer application is multipart (fields and two files): the route reads it, capped at its own limit.
  if (c.req.method === 'POST' && c.req.path === '/api/applications') return next();
  const buffer = await readCappedBody(c.req.raw);
  c.req.raw = new Request(c.req.raw, { body: buffer });
  // Hono keeps the promise of each body form it read under the method's name.
  c.req.bodyCache = { arrayBuffer: Promise.resolve(buffer) } as unknown as typeof c.req.bodyCache;
  const path = c.req.path;
  if ((path === '/api' || path.startsWith('/api/')) && !RAW_BODY_PREFIXES.some((p) => path.startsWith(p))) {
    refuseControlCharacters(await readJson(c), MULTILINE_PATHS.has(path));
  }
  await next();
});
