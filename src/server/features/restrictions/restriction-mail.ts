import type { Locale } from '../../../shared/constants';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';
import { framedMail } from '../../lib/mail-templates';
import type { RestrictionRow } from './restrictions.repo';

// The mails of a restriction, in the account's language (texts under restriction.mail): the
// statement of reasons (what, why, which category, until when, how to appeal), the lifting and
// the answer to an appeal, in the frame of every mail (lib/mail-templates.ts framedMail).

export type RestrictionMailKind = 'restricted' | 'lifted' | 'appeal_upheld' | 'appeal_lifted';

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
  return framedMail(locale, {
    to,
    subject,
    kind: kind === 'restricted' ? 'restriction' : `restriction_${kind}`,
    greeting: t('mail.greeting', { name: given.name }),
    paragraphs,
    button: link ? { label: t('restriction.mail.button'), link } : undefined,
  });
}
