import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { hiddenShowsFor, requestPlace } from '../features/geo/geo.service';

/**
 * Geo-blocking (issue 30 point 3): the request's place, and the shows hidden from it, asked for
 * only by the routes that list or show shows (one cached lookup, at most once per request).
 */
export const geo = createMiddleware<AppEnv>(async (c, next) => {
  const place = requestPlace(c.env, c.req.raw);
  c.set('place', place);
  let hidden: Promise<number[]> | null = null;
  c.set('hiddenShows', () => (hidden ??= hiddenShowsFor(c.env.DB, place)));
  await next();
});
