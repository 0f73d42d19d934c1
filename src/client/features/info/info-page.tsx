import { APPLY_PATH } from '../../../shared/applications';
import type { InfoContent, InfoPageKey } from '../../../shared/info';
import { useT } from '../../state/context';

interface PrefilledMail {
  to: string;
  subject: string;
}

/**
 * A structured text page: title, lead, a table of contents and anchored sections. The #contact
 * section can offer a mail to support with a subject given by the link that led there.
 */
export function InfoPage({ pageKey, content, mail }: { pageKey: InfoPageKey; content: InfoContent; mail?: PrefilledMail }) {
  const t = useT();
  return (
    <article className="info-page" data-info={pageKey}>
      <header className="info-header">
        <h1>{content.title}</h1>
        <p className="lead">{content.lead}</p>
        {pageKey === 'camgirl_werden' && (
          <p>
            <a className="btn btn-primary" href={APPLY_PATH} data-testid="apply-cta">
              {t('applications.cta')}
            </a>
          </p>
        )}
      </header>
      {content.sections.length > 2 && (
        <nav className="toc" aria-label={t('info.toc')}>
          <h2 className="toc-title">{t('info.toc')}</h2>
          <ol>
            {content.sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.heading}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {content.sections.map((s) => (
        <section key={s.id} id={s.id} className="info-section" aria-labelledby={`${s.id}-h`}>
          <h2 id={`${s.id}-h`}>
            <a href={`#${s.id}`} className="anchor">
              {s.heading}
            </a>
          </h2>
          {mail && s.id === 'contact' && (
            <div className="info-mail" data-testid="contact-mail">
              <p>
                {t('info.mailSubject')} <strong data-testid="contact-subject">{mail.subject}</strong>
              </p>
              <a className="btn btn-primary" href={`mailto:${mail.to}?subject=${encodeURIComponent(mail.subject)}`}>
                {t('info.mailSupport')}
              </a>
            </div>
          )}
          {s.paragraphs?.map((p, i) => <p key={i}>{p}</p>)}
          {s.list && (
            <ul>
              {s.list.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          )}
          {s.qa && (
            <div className="faq-list">
              {s.qa.map((qa, i) => (
                <details key={i} className="faq-item">
                  <summary>{qa.q}</summary>
                  <p>{qa.a}</p>
                </details>
              ))}
            </div>
          )}
        </section>
      ))}
    </article>
  );
}
