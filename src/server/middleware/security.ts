import { createMiddleware } from 'hono/factory';
import { BUILD_HEADER } from '../../shared/constants';
import { BUILD_ID } from '../../shared/build';
import type { AppEnv } from '../env';

function makeNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

// Google Identity Services (loaded only after consent) needs its frame, style and endpoints.
const GSI = 'https://accounts.google.com/gsi/';

function csp(nonce: string, dev: boolean, google: boolean): string {
  return [
    "default-src 'self'",
    // strict-dynamic lets the nonce'd entry module load its lazy island chunks.
    `script-src 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // No inline styles but the document's own stylesheet (nonce'd <style>, inlined for the first
    // paint); style attributes stay refused.
    `style-src 'self' 'nonce-${nonce}'${google ? ` ${GSI}style` : ''}`,
    "img-src 'self' data: blob:",
    // The studio reads a chosen video from a blob: URL (its duration, poster frame and preview).
    "media-src 'self' blob:",
    "font-src 'self'",
    // The service worker (/sw.js, same origin); without it workers fall back to script-src's nonce.
    "worker-src 'self'",
    // 'self' covers the own origin's ws:/wss: (CSP3; verified in Chromium by tests/e2e/shows-live).
    `connect-src 'self'${google ? ` ${GSI}` : ''}`,
    ...(google ? ['frame-src https://accounts.google.com'] : []),
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** Security headers and the build id on every response. */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  const nonce = makeNonce();
  c.set('nonce', nonce);
  await next();
  // Responses passed through from the assets binding have immutable headers.
  if (c.res.headers.get(BUILD_HEADER) === null) {
    try {
      c.res.headers.set(BUILD_HEADER, BUILD_ID);
    } catch {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(BUILD_HEADER, BUILD_ID);
    }
  }
  const h = c.res.headers;
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  h.set('X-Frame-Options', 'SAMEORIGIN');
  h.set('Permissions-Policy', 'camera=(self), microphone=(self), geolocation=(self)');
  if ((h.get('Content-Type') ?? '').startsWith('text/html')) {
    h.set('Content-Security-Policy', csp(nonce, c.env.ENVIRONMENT === 'development', !!c.env.GOOGLE_CLIENT_ID));
  }
  // /api answers are personal unless a route says otherwise (it sets its own Cache-Control).
  const path = c.req.path;
  if ((path === '/api' || path.startsWith('/api/')) && !h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
  if (new URL(c.req.url).protocol === 'https:') {
    h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  }
});
