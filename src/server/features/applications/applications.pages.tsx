import { Hono } from 'hono';
import { ApplyPage } from '../../../client/features/applications/apply-page';
import { Layout } from '../../../client/shell/layout';
import { APPLY_PATH } from '../../../shared/applications';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { myApplication } from './applications.service';
import { invitesFor } from './records.service';

/** /apply: a visitor is sent to log in first; a member sees their application or the form. */
export const applicationPages = new Hono<AppEnv>().get(APPLY_PATH, async (c) => {
  c.header('Cache-Control', 'no-store');
  const user = c.get('user');
  if (!user) return c.redirect(`/login?redirect=${encodeURIComponent(APPLY_PATH)}`, 302);
  const t = c.get('t');
  const application = await myApplication(c.env.DB, user.id);
  // Shows whose performer invited this member (co-performers, migration 0033).
  const invites = await invitesFor(c.env.DB, user.id);
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('applications.title') }]}>
      <ApplyPage application={application} invites={invites} />
    </Layout>,
    { title: `${t('applications.title')} – ${t('common.brand')}`, robots: 'noindex', texts: ['applications'] },
  );
});
