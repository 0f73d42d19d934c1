import { Hono, type Context } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { ErrorPage } from '../../../client/shell/error-page';
import { useSnap, useT } from '../../../client/state/context';
import type { AppEnv } from '../../env';
import { config } from '../../lib/config';
import { renderPage } from '../../render/render-page';
import { findMail, listMails, type MailRow } from '../../lib/mail.repo';

// Development only: every mail the StoredMailer kept, to read verification and reset links.

const LIST_LIMIT = 200;

/** The mail's own <body> content: its <html>/<body> tags would otherwise merge into the page's. */
export function mailBodyHtml(html: string): string {
  const m = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html);
  return m ? m[1] : html.replace(/<!DOCTYPE[^>]*>/i, '');
}

function formatTime(seconds: number, locale: string): string {
  return new Date(seconds * 1000).toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC' }) + ' UTC';
}

function MailboxList({ mails, to }: { mails: MailRow[]; to: string | null }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="mailbox">
      <header className="mailbox-head">
        <h1>{t('mailbox.title')}</h1>
        <p className="muted">{t('mailbox.lead')}</p>
        <form className="mailbox-filter" method="get" action="/dev/mailbox">
          <label htmlFor="mailbox-to">{t('mailbox.filter')}</label>
          <input id="mailbox-to" name="to" type="email" defaultValue={to ?? ''} placeholder={t('mailbox.filterPlaceholder')} />
          <button className="btn btn-outline" type="submit">
            {t('mailbox.apply')}
          </button>
          {to && (
            <a className="btn btn-text" href="/dev/mailbox">
              {t('mailbox.showAll')}
            </a>
          )}
        </form>
      </header>
      {mails.length === 0 ? (
        <p className="empty-state" data-testid="mailbox-empty">
          {t('mailbox.empty')}
        </p>
      ) : (
        <div className="mailbox-table-wrap">
          <table className="mailbox-table">
            <thead>
              <tr>
                <th scope="col">{t('mailbox.to')}</th>
                <th scope="col">{t('mailbox.subject')}</th>
                <th scope="col">{t('mailbox.kind')}</th>
                <th scope="col">{t('mailbox.time')}</th>
              </tr>
            </thead>
            <tbody>
              {mails.map((m) => (
                <tr key={m.id} data-mail-id={m.id}>
                  <td className="mailbox-to">{m.to_addr}</td>
                  <td>
                    <a href={`/dev/mailbox/${m.id}`}>{m.subject}</a>
                  </td>
                  <td>
                    <span className="chip">{m.kind}</span>
                  </td>
                  <td className="muted">{formatTime(m.created_at, snap.locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function MailView({ mail }: { mail: MailRow }) {
  const t = useT();
  const snap = useSnap();
  return (
    <article className="mailbox mail-view">
      <p>
        <a href="/dev/mailbox">{t('mailbox.back')}</a>
      </p>
      <h1>{mail.subject}</h1>
      <dl className="mail-meta">
        <dt>{t('mailbox.to')}</dt>
        <dd>{mail.to_addr}</dd>
        <dt>{t('mailbox.kind')}</dt>
        <dd>{mail.kind}</dd>
        <dt>{t('mailbox.time')}</dt>
        <dd>{formatTime(mail.created_at, snap.locale)}</dd>
      </dl>
      <h2>{t('mailbox.html')}</h2>
      {/* Our own mail templates, which escape every value they insert. */}
      <div className="mail-html" data-testid="mail-html" dangerouslySetInnerHTML={{ __html: mailBodyHtml(mail.html) }} />
      <h2>{t('mailbox.text')}</h2>
      <pre className="mail-text" data-testid="mail-text">
        {mail.text}
      </pre>
    </article>
  );
}

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
