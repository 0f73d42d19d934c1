import { Hono } from 'hono';
import { INFO_PAGES, type InfoContent, type InfoPageKey } from '../../../shared/info';
import { Layout } from '../../../client/components/shell/layout';
import { ErrorPage } from '../../../client/pages/error-page';
import { InfoPage } from '../../../client/pages/info-page';
import type { AppEnv } from '../../env';
import { config } from '../../lib/config';
import { renderPage } from '../../render/render-page';

export const infoPages = new Hono<AppEnv>();

for (const key of Object.keys(INFO_PAGES) as InfoPageKey[]) {
  infoPages.get(`/${key}`, (c) => {
    const t = c.get('t');
    const cfg = config(c.env);
    const content = c.get('i18n').t(`info.${INFO_PAGES[key]}`, {
      returnObjects: true,
      brand: t('common.brand'),
      supportEmail: cfg.supportEmail,
      abuseEmail: cfg.abuseEmail,
    }) as unknown as InfoContent;
    const url = new URL(c.req.url);
    return renderPage(
      c,
      <Layout breadcrumbs={[{ label: content.title }]}>
        <InfoPage pageKey={key} content={content} />
      </Layout>,
      { title: `${content.title} – ${t('common.brand')}`, description: content.lead, canonical: `${url.origin}${url.pathname}` },
    );
  });
}

infoPages.get('/404', (c) =>
  renderPage(
    c,
    <Layout>
      <ErrorPage status={404} />
    </Layout>,
    { title: `${c.get('t')('errorPage.notFound.title')} – ${c.get('t')('common.brand')}`, robots: 'noindex' },
    404,
  ),
);
