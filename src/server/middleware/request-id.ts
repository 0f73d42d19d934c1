import { createMiddleware } from 'hono/factory';
import { REQUEST_ID_HEADER } from '../../shared/constants';
import type { AppEnv } from '../env';

const VALID_ID = /^[A-Za-z0-9-]{8,64}$/;

/** Keeps a well-formed incoming request id (from a proxy) or makes one; echoed on the response with the worker's time. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header(REQUEST_ID_HEADER);
  const id = incoming && VALID_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set('requestId', id);
  const started = Date.now();
  await next();
  c.res.headers.set(REQUEST_ID_HEADER, id);
  // Time spent in the worker (it only advances across awaits there, e.g. hashing and D1).
  c.res.headers.set('Server-Timing', `app;dur=${Date.now() - started}`);
});
