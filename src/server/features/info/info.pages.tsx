import { Hono } from 'hono';
import { INFO_PAGES, type InfoContent, type InfoPageKey } from '../../../shared/info';
import { metaDescription } from '../../../shared/meta';
import { Layout } from '../../../client/shell/layout';
import { ErrorPage } from '../../../client/shell/error-page';
import { InfoPage } from '../../../client/features/info/info-page';
import type { AppEnv } from '../../env';
import { config } from '../../lib/config';
import { recordsCustodian } from '../applications/applications.service';
import { renderPage } from '../../render/render-page';

export const infoPages = new Hono<AppEnv>();

/** The 2257 page names the custodian of records kept in the database (migration 0032). */
async function custodianText(db: D1Database): Promise<string> {
  const c = await recordsCustodian(db);
  return c ? `${c.name}, ${c.address}` : '';
}

for (const key of Object.keys(INFO_PAGES) as InfoPageKey[]) {
  infoPages.get(`/${key}`, async (c) => {
    const t = c.get('t');
    const cfg = config(c.env);
    const content = c.get('i18n').t(`info.${INFO_PAGES[key]}`, {
      returnObjects: true,
      brand: t('common.brand'),
      supportEmail: cfg.supportEmail,
      abuseEmail: cfg.abuseEmail,
      custodian: key === 'usc2257' ? await custodianText(c.env.DB) : '',
    }) as unknown as InfoContent;
    const url = new URL(c.req.url);
    // /contact?subject=... (e.g. from a failed payment): a mail to support with that subject.
    // Cut by characters, not UTF-16 units: half an emoji would break the mailto link.
    const subject = key === 'contact' ? Array.from((url.searchParams.get('subject') ?? '').trim()).slice(0, 200).join('') : '';
    return renderPage(
      c,
      <Layout breadcrumbs={[{ label: content.title }]}>
        <InfoPage pageKey={key} content={content} mail={subject ? { to: cfg.supportEmail, subject } : undefined} />
      </Layout>,
      { title: `${content.title} – ${t('common.brand')}`, description: metaDescription(content.lead), canonical: `${url.origin}${url.pathname}` },
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
