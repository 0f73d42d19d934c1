import type { Locale } from '../../../shared/constants';
import type { ReportOutcome } from '../../../shared/reports';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';

// The reporter's mails (texts under reports.mail), in their language: the acknowledgement of a
// report and its outcome. Same frame as the restriction mails (restrictions/restriction-mail.ts).

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

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
  const footer = t('mail.footer', { brand });
  const html = `<!DOCTYPE html><html lang="${locale}"><body style="margin:0;background:#f4f4f4;font-family:Arial,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:28px">
<tr><td style="font-size:22px;font-weight:bold;color:#b3001b">${escape(brand)}</td></tr>
<tr><td style="padding-top:16px;font-size:16px">${escape(greeting)}</td></tr>
${paragraphs.map((p) => `<tr><td style="padding-top:12px;font-size:15px;line-height:1.5">${escape(p).replace(/\n/g, '<br>')}</td></tr>`).join('\n')}
<tr><td style="padding-top:20px;font-size:12px;color:#888">${escape(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = `${greeting}\n\n${paragraphs.join('\n\n')}\n\n${footer}\n`;
  return { to, subject, html, text, kind: `report_${kind}` };
}
