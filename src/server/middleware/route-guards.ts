import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { safeRedirect } from '../../shared/safe-redirect';
import type { AppEnv } from '../env';
import { forgetSplashDetour, isHttps } from '../features/session/session.service';

export const SPLASH_ROUTE_COOKIE = 'splash_route';
/** Static routes that never bounce to the splash target. */
const SPLASH_EXEMPT = ['/terms', '/contact', '/privacy_policy', '/faq', '/usc2257', '/refund'];
/** Areas a voice-call session may not open; it is sent home instead. */
const VOICECALL_BLOCKED = ['/users/', '/messages', '/billing', '/bill', '/videos', '/galleries', '/contest', '/archive'];

function within(path: string, prefixes: string[]): boolean {
  return prefixes.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p || path.startsWith(`${p}/`)));
}

/** Page route guards: the redirect_splash flow and the voice-call limits. */
export const routeGuards = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== 'GET') return next();
  const url = new URL(c.req.url);
  const path = url.pathname;
  const session = c.get('session');

  if (url.searchParams.has('splash_checked')) {
    // Back from the splash target: return to the remembered page and forget the detour.
    const remembered = getCookie(c, SPLASH_ROUTE_COOKIE);
    deleteCookie(c, SPLASH_ROUTE_COOKIE, { path: '/' });
    await forgetSplashDetour(c);
    return c.redirect(safeRedirect(remembered, url.origin), 302);
  }

  // Stored text becomes a Location header only through safeRedirect (no CR/LF/NUL, no other host).
  const splashTarget = safeRedirect(session.redirect_splash, url.origin, '');
  if (splashTarget) {
    const targetPath = new URL(splashTarget, url.origin).pathname;
    if (path !== targetPath && !SPLASH_EXEMPT.includes(path) && !path.startsWith('/avs')) {
      setCookie(c, SPLASH_ROUTE_COOKIE, path + url.search, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: 3600 });
      return c.redirect(splashTarget, 302);
    }
  }

  if (session.voicecall && within(path, VOICECALL_BLOCKED) && !within(path, ['/billing/phone'])) return c.redirect('/', 302);
  return next();
});
