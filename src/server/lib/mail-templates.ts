import type { Locale } from '../../shared/constants';
import type { Mail } from './mailer';
import { i18nFor } from './i18n';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The link opens the site in the mail's language (?lang, which the preferences middleware reads):
 * a member who clicks it in another browser, or logged out, lands in the language they asked in.
 */
function withLang(link: string, locale: Locale): string {
  const url = new URL(link);
  url.searchParams.set('lang', locale);
  return url.href;
}

/**
 * The frame of every mail: the brand, a greeting, paragraphs (their line breaks kept), a button
 * with its link written out below it (optional), the footer; as HTML and as plain text.
 */
export function framedMail(
  locale: Locale,
  m: { to: string; subject: string; kind: string; greeting: string; paragraphs: string[]; button?: { label: string; link: string } },
): Mail {
  const t = i18nFor(locale).t;
  const brand = t('common.brand');
  const footer = t('mail.footer', { brand });
  const b = m.button;
  const html = `<!DOCTYPE html><html lang="${locale}"><body style="margin:0;background:#f4f4f4;font-family:Arial,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:28px">
<tr><td style="font-size:22px;font-weight:bold;color:#b3001b">${escape(brand)}</td></tr>
<tr><td style="padding-top:16px;font-size:16px">${escape(m.greeting)}</td></tr>
${m.paragraphs.map((p) => `<tr><td style="padding-top:12px;font-size:15px;line-height:1.5">${escape(p).replace(/\n/g, '<br>')}</td></tr>`).join('\n')}
${b ? `<tr><td style="padding:24px 0"><a href="${escape(b.link)}" style="background:#d7263d;color:#fff;text-decoration:none;padding:12px 22px;border-radius:999px;font-weight:bold">${escape(b.label)}</a></td></tr>
<tr><td style="font-size:12px;color:#666;word-break:break-all">${escape(b.link)}</td></tr>` : ''}
<tr><td style="padding-top:20px;font-size:12px;color:#888">${escape(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = `${m.greeting}\n\n${m.paragraphs.join('\n\n')}\n\n${b ? `${b.label}: ${b.link}\n\n` : ''}${footer}\n`;
  return { to: m.to, subject: m.subject, html, text, kind: m.kind };
}

/** A mail with one call-to-action link, in the member's language (texts under mail.<kind>). */
export function actionMail(kind: 'verify' | 'reset' | 'login' | 'favorite', locale: Locale, to: string, given: { name: string; link: string; show?: string }): Mail {
  const t = i18nFor(locale).t;
  const brand = t('common.brand');
  return framedMail(locale, {
    to,
    kind,
    subject: t(`mail.${kind}.subject`, { brand, show: given.show }),
    greeting: t('mail.greeting', { name: given.name }),
    paragraphs: [t(`mail.${kind}.body`, { brand, show: given.show })],
    button: { label: t(`mail.${kind}.button`), link: withLang(given.link, locale) },
  });
}
