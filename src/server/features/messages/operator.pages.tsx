import { Hono } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { OperatorPage } from '../../../client/features/messages/operator-page';
import { OPERATOR_INBOX_PATH } from '../../../shared/messages';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { operatorPageGate } from '../operator/operator.service';

/** /operator/messages: visitors go to the login, operators to their second factor (and come back); others see that it is for operators (403). */
export const operatorPages = new Hono<AppEnv>().get('/messages', async (c) => {
  const gate = operatorPageGate(c, OPERATOR_INBOX_PATH);
  if (gate instanceof Response) return gate;
  const t = c.get('t');
  const operator = gate === 'ok';
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('inbox.operatorTitle') }]}>
      <OperatorPage operator={operator} />
    </Layout>,
    { title: `${t('inbox.operatorTitle')} – ${t('common.brand')}`, robots: 'noindex', texts: ['inbox'] },
    operator ? 200 : 403,
  );
});
