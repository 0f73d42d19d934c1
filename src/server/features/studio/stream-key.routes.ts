import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { newStreamKey, streamKeyMade } from '../video/stream-keys.service';

// /api/studio/stream-key (issue 28): the performer's stream key for OBS. GET says whether there is
// one and where OBS sends to; POST makes a new one (the old stops working) and answers it, the
// only time it is shown.

function whipUrl(origin: string, show: number): string {
  return `${origin}/whip/${show}`;
}

function showOf(user: { performer_show: number | null } | null | undefined): number {
  if (!user) throw new ApiError(401, 'unauthenticated');
  if (user.performer_show === null) throw new ApiError(403, 'not_performer');
  return user.performer_show;
}

export const streamKeyRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  })
  .get('/', async (c) => {
    const show = showOf(c.get('user'));
    const createdAt = await streamKeyMade(c.env.DB, show);
    return c.json({ server: whipUrl(new URL(c.req.url).origin, show), exists: createdAt !== null, createdAt });
  })
  .post('/', async (c) => {
    const show = showOf(c.get('user'));
    const { key, createdAt } = await newStreamKey(c.env.DB, show);
    return c.json({ server: whipUrl(new URL(c.req.url).origin, show), exists: true, createdAt, key });
  });
