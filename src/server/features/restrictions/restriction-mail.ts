import type { Locale } from '../../../shared/constants';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';
import type { RestrictionRow } from './restrictions.repo';

// The mails of a restriction, in the account's language (texts under restriction.mail): the
// statement of reasons (what, why, which category, until when, how to appeal), the lifting and
// the answer to an appeal. Same frame as the account mails (lib/mail-templates.ts).

export type RestrictionMailKind = 'restricted' | 'lifted' | 'appeal_upheld' | 'appeal_lifted';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A date as the account reads it (UTC, named). */
export function mailDate(seconds: number, locale: Locale): string {
  return `${new Date(seconds * 1000).toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'long', timeStyle: 'short' })} UTC`;
}

export function restrictionMail(
  kind: RestrictionMailKind,
  locale: Locale,
  to: string,
  given: { name: string; restriction: RestrictionRow; link?: string; answer?: string },
): Mail {
  const t = i18nFor(locale).t;
  const r = given.restriction;
  const brand = t('common.brand');
  const what = t(`restriction.mail.what_${r.kind}`);
  const vars = { brand, what, until: r.ends_at === null ? '' : mailDate(r.ends_at, locale), category: t(`restriction.categories.${r.reason_category}`) };
  const link = given.link ? `${given.link}?lang=${locale}` : null;
  const paragraphs: string[] = [];
  let subject: string;
  if (kind === 'restricted') {
    subject = t(`restriction.mail.subject_${r.kind}`, vars);
    paragraphs.push(
      t(r.kind === 'ban' ? 'restriction.mail.banned' : 'restriction.mail.suspended', vars),
      t('restriction.mail.category', vars),
      `${t('restriction.mail.reasons')}\n${r.reason}`,
      t('restriction.mail.effect'),
      t('restriction.mail.person'),
      t('restriction.mail.appeal'),
    );
  } else {
    subject = t(`restriction.mail.subject_${kind}`, vars);
    paragraphs.push(t(`restriction.mail.${kind}`, vars), `${t('restriction.mail.answer')}\n${given.answer ?? ''}`);
  }
  const greeting = t('mail.greeting', { name: given.name });
  const footer = t('mail.footer', { brand });
  const button = t('restriction.mail.button');
  const html = `<!DOCTYPE html><html lang="${locale}"><body style="margin:0;background:#f4f4f4;font-family:Arial,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:28px">
<tr><td style="font-size:22px;font-weight:bold;color:#b3001b">${escape(brand)}</td></tr>
<tr><td style="padding-top:16px;font-size:16px">${escape(greeting)}</td></tr>
${paragraphs.map((p) => `<tr><td style="padding-top:12px;font-size:15px;line-height:1.5">${escape(p).replace(/\n/g, '<br>')}</td></tr>`).join('\n')}
${link ? `<tr><td style="padding:24px 0"><a href="${escape(link)}" style="background:#d7263d;color:#fff;text-decoration:none;padding:12px 22px;border-radius:999px;font-weight:bold">${escape(button)}</a></td></tr>
<tr><td style="font-size:12px;color:#666;word-break:break-all">${escape(link)}</td></tr>` : ''}
<tr><td style="padding-top:20px;font-size:12px;color:#888">${escape(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = `${greeting}\n\n${paragraphs.join('\n\n')}\n\n${link ? `${button}: ${link}\n\n` : ''}${footer}\n`;
  return { to, subject, html, text, kind: kind === 'restricted' ? 'restriction' : `restriction_${kind}` };
}
