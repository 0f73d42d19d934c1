import { Hono } from 'hono';
import { COUNTER_WEBSITE_ID } from '../../../shared/constants';
import type { AppEnv } from '../../env';

// 1x1 transparent GIF.
const GIF = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) => ch.charCodeAt(0));

/** The counter pixel (website id 19): counts a hit per day, stores nothing about the visitor. */
export const pixelRoutes = new Hono<AppEnv>().get('/pixel.gif', async (c) => {
  const websiteId = Number(c.req.query('websiteid'));
  const site = Number.isInteger(websiteId) && websiteId > 0 && websiteId < 1_000_000 ? websiteId : COUNTER_WEBSITE_ID;
  c.executionCtx.waitUntil(
    c.env.DB.prepare('INSERT INTO counter_hits (day, website_id, hits) VALUES (?, ?, 1) ON CONFLICT (day, website_id) DO UPDATE SET hits = hits + 1')
      .bind(new Date().toISOString().slice(0, 10), site)
      .run()
      .catch(() => undefined),
  );
  return c.body(GIF, 200, { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store' });
});
