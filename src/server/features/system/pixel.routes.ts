import { Hono } from 'hono';
import { COUNTER_WEBSITE_ID } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { countHit } from './system.repo';

// 1x1 transparent GIF.
const GIF = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) => ch.charCodeAt(0));

/** The counter pixel (website id 19): counts a hit per day, stores nothing about the visitor. */
export const pixelRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const websiteId = Number(c.req.query('websiteid'));
  const site = Number.isInteger(websiteId) && websiteId > 0 && websiteId < 1_000_000 ? websiteId : COUNTER_WEBSITE_ID;
  c.executionCtx.waitUntil(
    countHit(c.env.DB, new Date().toISOString().slice(0, 10), site).catch(() => undefined),
  );
  return c.body(GIF, 200, { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store' });
});
