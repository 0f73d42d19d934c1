import type { Context } from 'hono';
import type { AppEnv } from '../env';

/**
 * A browser always names the page that opens a socket (Origin); another site's page may not open
 * one with the visitor's cookies (cross-site WebSocket hijacking). Clients that are not browsers
 * send none. Our origins: this request's own and the configured public one.
 */
export function socketOriginAllowed(c: Context<AppEnv>): boolean {
  const origin = c.req.header('Origin');
  if (origin === undefined) return true;
  const origins = new Set([new URL(c.req.url).origin]);
  try {
    if (c.env.PUBLIC_ORIGIN) origins.add(new URL(c.env.PUBLIC_ORIGIN).origin);
  } catch {
    // a malformed setting adds nothing
  }
  return origins.has(origin);
}
