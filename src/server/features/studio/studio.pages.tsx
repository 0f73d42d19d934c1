import { Hono } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { StudioPage } from '../../../client/features/studio/studio-page';
import { isPerformerUser } from '../../../shared/drawer';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';

/** /studio: visitors go to the login (and come back after it); members without a show see why; performers get the studio. */
export const studioPages = new Hono<AppEnv>().get('/', (c) => {
  const user = c.get('user');
  if (!user) return c.redirect(`/login?redirect=${encodeURIComponent('/studio')}`, 302);
  const t = c.get('t');
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('studio.crumb') }]}>
      <StudioPage performer={isPerformerUser(user)} />
    </Layout>,
    { title: `${t('studio.crumb')} – ${t('common.brand')}`, robots: 'noindex', texts: ['chat', 'studio', 'inbox'] },
  );
});
