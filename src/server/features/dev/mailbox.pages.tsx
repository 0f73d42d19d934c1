import { Hono, type Context } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { ErrorPage } from '../../../client/shell/error-page';
import { MailboxList, MailView } from '../../../client/features/dev/mailbox-page';
import type { AppEnv } from '../../env';
import { config } from '../../lib/config';
import { renderPage } from '../../render/render-page';
import { findMail, listMails } from '../../lib/mail.repo';

// Development only: every mail the StoredMailer kept, to read verification and reset links.

const LIST_LIMIT = 200;

function notFound(c: Context<AppEnv>): Response {
  const t = c.get('t');
  return renderPage(
    c,
    <Layout>
      <ErrorPage status={404} />
    </Layout>,
    { title: `${t('errorPage.notFound.title')} – ${t('common.brand')}`, robots: 'noindex' },
    404,
  );
}

function toFilter(c: Context<AppEnv>): string | null {
  const to = c.req.query('to')?.trim();
  return to && to.length <= 254 ? to : null;
}

export const mailboxPages = new Hono<AppEnv>()
  .get('/mailbox.json', async (c) => {
    if (!config(c.env).dev) return c.json({ message: 'not_found' }, 404);
    const mails = await listMails(c.env.DB, toFilter(c), LIST_LIMIT);
    return c.json(
      mails.map((m) => ({ id: m.id, to: m.to_addr, subject: m.subject, text: m.text, html: m.html, kind: m.kind, created_at: m.created_at })),
      200,
      { 'Cache-Control': 'no-store' },
    );
  })
  .get('/mailbox', async (c) => {
    if (!config(c.env).dev) return notFound(c);
    const to = toFilter(c);
    const t = c.get('t');
    return renderPage(
      c,
      <Layout breadcrumbs={[{ label: t('mailbox.title') }]}>
        <MailboxList mails={await listMails(c.env.DB, to, LIST_LIMIT)} to={to} />
      </Layout>,
      { title: `${t('mailbox.title')} – ${t('common.brand')}`, robots: 'noindex' },
    );
  })
  .get('/mailbox/:id{[0-9]{1,9}}', async (c) => {
    if (!config(c.env).dev) return notFound(c);
    const mail = await findMail(c.env.DB, Number(c.req.param('id')));
    if (!mail) return notFound(c);
    const t = c.get('t');
    return renderPage(
      c,
      <Layout breadcrumbs={[{ label: t('mailbox.title'), href: '/dev/mailbox' }, { label: mail.subject }]}>
        <MailView mail={mail} />
      </Layout>,
      { title: `${mail.subject} – ${t('mailbox.title')}`, robots: 'noindex' },
    );
  });
