import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { timingSafeEqual } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { publishShowStatus } from '../../realtime/shards';

/** Operator calls authenticate with `Authorization: Bearer <OPS_TOKEN>`; no token configured, no access. */
const operator = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.OPS_TOKEN;
  const given = (c.req.header('Authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!expected || !timingSafeEqual(given, expected)) throw new ApiError(401, 'unauthenticated');
  await next();
});

/** Until performers go live themselves: operators (and tests) switch a show on or off. */
export const opsRoutes = new Hono<AppEnv>().use(operator).post(
  '/shows/:id/status',
  zValidator('param', z.object({ id: z.string().regex(/^\d{1,9}$/, 'id_invalid') }), validationHook),
  zValidator('json', z.object({ online: z.boolean() }), validationHook),
  async (c) => {
    const id = Number(c.req.valid('param').id);
    const { online } = c.req.valid('json');
    const row = await c.env.DB.prepare('UPDATE shows SET online = ?, online_since = ? WHERE id = ? RETURNING id, online')
      .bind(online ? 1 : 0, online ? Math.floor(Date.now() / 1000) : null, id)
      .first<{ id: number; online: number }>();
    if (!row) throw new ApiError(404, 'not_found');
    await publishShowStatus(c.env, [{ id, online }]);
    return c.json({ id, online });
  },
);
