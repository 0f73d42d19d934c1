import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { ERROR_LOG_MAX } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { anonymousWrite } from '../../lib/limits';
import { validationHook } from '../../lib/validation';

/** Batches of the client error log per client address and hour (a page sends one batch at a time). */
const CLIENT_LOGS_PER_ADDRESS = 120;
/** Up to ERROR_LOG_MAX entries of a few KB each. */
const CLIENT_LOG_BODY_MAX = 128 * 1024;

const logEntry = z.object({
  created: z.number().int().nonnegative(),
  message: z.string().max(2000),
  level: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(1),
  userAgent: z.string().max(500).optional(),
  prevRoute: z.string().max(2000).nullable().optional(),
  currentRoute: z.string().max(2000).optional(),
  objects: z.array(z.unknown()).max(10).optional(),
});

/** /api/log: the client error log. */
export const logRoutes = new Hono<AppEnv>().post(
  '/',
  anonymousWrite('client-log', CLIENT_LOGS_PER_ADDRESS, CLIENT_LOG_BODY_MAX),
  zValidator('json', z.object({ entries: z.array(logEntry).min(1).max(ERROR_LOG_MAX) }), validationHook),
  (c) => {
    const { entries } = c.req.valid('json');
    for (const e of entries) {
      console.warn(JSON.stringify({ type: 'client_error', requestId: c.get('requestId'), ...e }));
    }
    return c.body(null, 204);
  },
);
