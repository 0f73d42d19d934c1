import type { Locale } from '../../../shared/constants';
import type { ContentAppealOutcome } from '../../../shared/restrictions';
import type { Bindings } from '../../env';
import { mailOrigin } from '../../lib/config';
import { i18nFor } from '../../lib/i18n';
import { mailerFor, type Mail } from '../../lib/mailer';
import { framedMail } from '../../lib/mail-templates';
import type { DecidedContentAppeal } from './content-appeals.repo';
import { targetRow } from './restrictions.repo';

// The performer's mail with the answer to their appeal against the removal or refusal of an
// upload (texts under restriction.content_mail), in their language, in the frame of every mail.

export function contentAppealMail(outcome: ContentAppealOutcome, locale: Locale, to: string, given: { name: string; title: string; answer: string; origin: string }): Mail {
  const t = i18nFor(locale).t;
  const vars = { brand: t('common.brand'), title: given.title, link: `${given.origin}/studio` };
  return framedMail(locale, {
    to,
    subject: t(`restriction.content_mail.subject_${outcome}`, vars),
    kind: `content_appeal_${outcome}`,
    greeting: t('mail.greeting', { name: given.name }),
    paragraphs: [t(`restriction.content_mail.${outcome}`, vars), `${t('restriction.mail.answer')}\n${given.answer}`, t('restriction.mail.person'), t('restriction.content_mail.next', vars)],
  });
}

/** Mails the performer who appealed the decision on it (nothing when the account is gone or mail is not configured). */
export async function mailContentAppealDecision(env: Bindings, decided: DecidedContentAppeal, outcome: ContentAppealOutcome, answer: string): Promise<void> {
  const [account, origin] = [await targetRow(env.DB, decided.user_id), mailOrigin(env)];
  if (!account || !origin) return;
  const locale: Locale = account.locale === 'de' ? 'de' : 'en';
  const title = locale === 'de' ? decided.title_de : decided.title_en;
  await mailerFor(env).send(contentAppealMail(outcome, locale, account.email, { name: account.name, title, answer, origin }));
}
