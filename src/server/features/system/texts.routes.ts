import { Hono } from 'hono';
import { LOCALES, type Locale } from '../../../shared/constants';
import type { AppEnv } from '../../env';
import { clientTextsFile } from '../../lib/i18n';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * /i18n/{locale}.{hash}.json: the islands' texts of a locale (see clientTextsFile). The name
 * carries the content hash, so it is cached for good; a page of an older build asking for an older
 * hash gets today's texts, revalidated each time.
 */
export const textsRoutes = new Hono<AppEnv>().get('/:file{[a-z]{2}\\.[a-z0-9]{1,20}\\.json}', (c) => {
  const file = c.req.param('file');
  const locale = file.slice(0, 2) as Locale;
  if (!LOCALES.includes(locale)) return c.notFound();
  const current = clientTextsFile(locale);
  return c.body(current.body, 200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': file === current.name ? IMMUTABLE : 'public, no-cache',
  });
});
