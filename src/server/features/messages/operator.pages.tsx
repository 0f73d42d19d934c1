import { Hono } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { OperatorPage } from '../../../client/features/messages/operator-page';
import { OPERATOR_INBOX_PATH } from '../../../shared/messages';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { isOperator } from './inbox.repo';

/** /operator/messages: visitors go to the login (and come back); others see that it is for operators (403). */
export const operatorPages = new Hono<AppEnv>().get('/messages', async (c) => {
  const user = c.get('user');
  if (!user) return c.redirect(`/login?redirect=${encodeURIComponent(OPERATOR_INBOX_PATH)}`, 302);
  const t = c.get('t');
  const operator = await isOperator(c.env.DB, user.id);
  c.header('Cache-Control', 'no-store');
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('inbox.operatorTitle') }]}>
      <OperatorPage operator={operator} />
    </Layout>,
    { title: `${t('inbox.operatorTitle')} – ${t('common.brand')}`, robots: 'noindex', texts: ['inbox'] },
    operator ? 200 : 403,
  );
});
