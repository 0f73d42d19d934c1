import type { Locale } from '../../../shared/constants';
import type { ReportOutcome } from '../../../shared/reports';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';
import { framedMail } from '../../lib/mail-templates';

// The reporter's mails (texts under reports.mail), in their language: the acknowledgement of a
// report and its outcome, in the frame of every mail (lib/mail-templates.ts framedMail).

export function reportMail(
  kind: 'received' | 'outcome',
  locale: Locale,
  to: string,
  given: { id: number; name: string | null; category: string; outcome?: ReportOutcome; outcomeText?: string },
): Mail {
  const t = i18nFor(locale).t;
  const brand = t('common.brand');
  const vars = { brand, id: given.id, category: t(`reports.categories.${given.category}`) };
  const subject = t(`reports.mail.subject_${kind}`, vars);
  const paragraphs =
    kind === 'received'
      ? [t('reports.mail.received', vars), t('reports.mail.category', vars), t('reports.mail.next')]
      : [t('reports.mail.decided', vars), t(`reports.mail.outcome_${given.outcome}`), `${t('reports.mail.reasons')}\n${given.outcomeText ?? ''}`, t('reports.mail.person')];
  const greeting = given.name ? t('mail.greeting', { name: given.name }) : t('reports.mail.hello');
  return framedMail(locale, { to, subject, kind: `report_${kind}`, greeting, paragraphs });
}
