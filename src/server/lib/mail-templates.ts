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

/** A mail with one call-to-action link, in the member's language (texts under mail.<kind>). */
export function actionMail(kind: 'verify' | 'reset' | 'login' | 'favorite', locale: Locale, to: string, given: { name: string; link: string; show?: string }): Mail {
  const t = i18nFor(locale).t;
  const vars = { ...given, link: withLang(given.link, locale) };
  const brand = t('common.brand');
  const subject = t(`mail.${kind}.subject`, { brand, show: vars.show });
  const greeting = t('mail.greeting', { name: vars.name });
  const body = t(`mail.${kind}.body`, { brand, show: vars.show });
  const button = t(`mail.${kind}.button`);
  const footer = t('mail.footer', { brand });
  const html = `<!DOCTYPE html><html lang="${locale}"><body style="margin:0;background:#f4f4f4;font-family:Arial,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:28px">
<tr><td style="font-size:22px;font-weight:bold;color:#b3001b">${escape(brand)}</td></tr>
<tr><td style="padding-top:16px;font-size:16px">${escape(greeting)}</td></tr>
<tr><td style="padding-top:12px;font-size:15px;line-height:1.5">${escape(body)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escape(vars.link)}" style="background:#d7263d;color:#fff;text-decoration:none;padding:12px 22px;border-radius:999px;font-weight:bold">${escape(button)}</a></td></tr>
<tr><td style="font-size:12px;color:#666;word-break:break-all">${escape(vars.link)}</td></tr>
<tr><td style="padding-top:20px;font-size:12px;color:#888">${escape(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = `${greeting}\n\n${body}\n\n${button}: ${vars.link}\n\n${footer}\n`;
  return { to, subject, html, text, kind };
}
