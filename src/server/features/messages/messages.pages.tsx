import { Hono, type Context } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { MessagesPage } from '../../../client/features/messages/messages-page';
import type { MessagesPageProps } from '../../../client/features/messages/messages.island';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';

// The member's messages: /messages (inbox), /messages/support, /messages/{id}. Visitors go to the
// login and come back here after it. The island loads the data itself (GET /api/conversations...).

function render(c: Context<AppEnv>, props: MessagesPageProps, crumb?: string) {
  const url = new URL(c.req.url);
  if (!c.get('user')) return c.redirect(`/login?redirect=${encodeURIComponent(url.pathname + url.search)}`, 302);
  const t = c.get('t');
  const title = t('messages.title');
  const trail = crumb ? [{ label: title, href: '/messages' }, { label: crumb }] : [{ label: title }];
  return renderPage(c, <Layout breadcrumbs={trail}>{<MessagesPage {...props} />}</Layout>, {
    title: `${crumb ?? title} – ${t('common.brand')}`,
    robots: 'noindex',
    texts: ['messages'],
  });
}

export const messagesPages = new Hono<AppEnv>()
  .get('/', (c) => render(c, { view: 'inbox', search: new URL(c.req.url).search }))
  .get('/support', (c) => render(c, { view: 'support', search: '' }, c.get('t')('messages.support.title')))
  .get('/:id{[0-9]{1,12}}', (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id < 1) return c.notFound();
    return render(c, { view: 'thread', id, search: '' }, c.get('t')('messages.thread.crumb'));
  });
