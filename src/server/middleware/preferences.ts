import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import {
  LAYOUT_COOKIE,
  LAYOUT_COOKIE_DAYS,
  LOCALE_COOKIE,
  LOCALE_COOKIE_DAYS,
} from '../../shared/constants';
import { DEFAULT_LAYOUT, isLayout } from '../../shared/layouts';
import { isLocale, resolveLocale } from '../../shared/locale';
import type { AppEnv } from '../env';
import { i18nFor } from '../lib/i18n';

const DAY = 86_400;

/** Locale (query lang, cookie, Accept-Language) and colour layout (query l, cookie), both remembered. */
export const preferences = createMiddleware<AppEnv>(async (c, next) => {
  const secure = new URL(c.req.url).protocol === 'https:';
  const queryLang = c.req.query('lang');
  const cookieLang = getCookie(c, LOCALE_COOKIE);
  const locale = resolveLocale({
    query: queryLang,
    cookie: cookieLang,
    acceptLanguage: c.req.header('Accept-Language'),
  });
  c.set('locale', locale);
  const i18n = i18nFor(locale);
  c.set('i18n', i18n);
  c.set('t', (key, vars) => i18n.t(key, vars ?? {}) as string);

  const queryLayout = c.req.query('l');
  const cookieLayout = getCookie(c, LAYOUT_COOKIE);
  c.set('layout', isLayout(queryLayout) ? queryLayout : isLayout(cookieLayout) ? cookieLayout : DEFAULT_LAYOUT);
  c.set('headerHidden', c.req.query('h') === 'off');

  await next();

  if (cookieLang !== locale && (isLocale(queryLang) || !isLocale(cookieLang))) {
    setCookie(c, LOCALE_COOKIE, locale, { path: '/', maxAge: LOCALE_COOKIE_DAYS * DAY, sameSite: 'Lax', secure });
  }
  if (isLayout(queryLayout) && queryLayout !== cookieLayout) {
    setCookie(c, LAYOUT_COOKIE, queryLayout, { path: '/', maxAge: LAYOUT_COOKIE_DAYS * DAY, sameSite: 'Lax', secure });
  }
});
