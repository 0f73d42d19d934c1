import { Hono } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { RestrictionPage } from '../../../client/features/restrictions/restriction-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { statementFor } from './restrictions.service';

/**
 * /account/restriction/:token: the statement of reasons and the appeal, by the mailed link (the
 * account cannot log in). Personal: not stored by caches, not indexed, no referrer with the token.
 */
export const restrictionPages = new Hono<AppEnv>().get('/restriction/:token', async (c) => {
  const token = c.req.param('token');
  const statement = await statementFor(c.env.DB, token);
  const t = c.get('t');
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  const title = t(`restriction.page.title_${statement.restriction.kind}`);
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: title }]}>
      <RestrictionPage statement={statement} token={token} />
    </Layout>,
    { title: `${title} – ${t('common.brand')}`, robots: 'noindex', texts: ['restriction'] },
  );
});
