import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { appealSchema, type Statement } from '../../../shared/restrictions';
import type { AppEnv } from '../../env';
import { anonymousWrite, TOKEN_TRIES_PER_ADDRESS } from '../../lib/limits';
import { validationHook } from '../../lib/validation';
import { appealRestriction, statementFor } from './restrictions.service';

/** An appeal of up to 4,000 characters, in any script. */
const APPEAL_BODY_MAX = 24 * 1024;

/**
 * /api/restrictions/:token: the restricted account's statement of reasons and its appeal, by the
 * token of the mailed link (the account can no longer log in). Tries per address are capped like
 * the other mailed tokens.
 */
export const restrictionsRoutes = new Hono<AppEnv>()
  .get('/:token', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json<Statement>(await statementFor(c.env.DB, c.req.param('token')));
  })
  .post('/:token/appeal', anonymousWrite('token', TOKEN_TRIES_PER_ADDRESS, APPEAL_BODY_MAX), zValidator('json', appealSchema, validationHook), async (c) => {
    c.header('Cache-Control', 'no-store');
    const id = await appealRestriction(c.env.DB, c.req.param('token'), c.req.valid('json').text);
    return c.json({ appeal: { id } }, 201);
  });
