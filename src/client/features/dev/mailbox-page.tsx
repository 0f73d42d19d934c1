import type { StoredMail as Mail } from '../../../shared/mail';
import { useSnap, useT } from '../../state/context';
import { TableHead } from '../../ui/table-head';

// The development mailbox's list and single mail (rendered by the server at /dev/mailbox).

/** The mail's own <body> content: its <html>/<body> tags would otherwise merge into the page's. */
export function mailBodyHtml(html: string): string {
  const m = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html);
  return m ? m[1] : html.replace(/<!DOCTYPE[^>]*>/i, '');
}

function formatTime(seconds: number, locale: string): string {
  return new Date(seconds * 1000).toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC' }) + ' UTC';
}

export function MailboxList({ mails, to }: { mails: Mail[]; to: string | null }) {
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
            <TableHead columns={[t('mailbox.to'), t('mailbox.subject'), t('mailbox.kind'), t('mailbox.time')]} />
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

export function MailView({ mail }: { mail: Mail }) {
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
