import type { ApplicationState } from '../../../shared/applications';
import type { Locale } from '../../../shared/constants';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';

// The applicant's mail about an operator's decision (texts under applications.mail), in their
// language; same frame as the reports' and restrictions' mails.

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function applicationMail(state: ApplicationState, locale: Locale, to: string, given: { name: string; stageName: string; reason: string; origin: string }): Mail {
  const t = i18nFor(locale).t;
  const brand = t('common.brand');
  const link = `${given.origin}${state === 'approved' ? '/studio' : '/apply'}`;
  const vars = { brand, stage_name: given.stageName, link };
  const subject = t(`applications.mail.subject_${state}`, vars);
  const paragraphs = [t(`applications.mail.${state}`, vars), `${t('applications.mail.message')}\n${given.reason}`, t(`applications.mail.next_${state}`, vars)];
  const greeting = t('mail.greeting', { name: given.name });
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
  return { to, subject, html, text, kind: `application_${state}` };
}
