import type { Locale } from '../../../shared/constants';
import type { ReviewState } from '../../../shared/uploads';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';
import { framedMail } from '../../lib/mail-templates';

// The performer's mail about an operator's decision on their upload (texts under
// operator.moderation.mail), in their language, in the frame of every mail.

export function moderationMail(review: Exclude<ReviewState, 'pending'>, locale: Locale, to: string, given: { name: string; title: string; reason: string | null; origin: string }): Mail {
  const t = i18nFor(locale).t;
  const vars = { brand: t('common.brand'), title: given.title, link: `${given.origin}/studio` };
  const paragraphs = [t(`operator.moderation.mail.${review}`, vars), ...(given.reason ? [`${t('operator.moderation.mail.reason')}\n${given.reason}`] : []), t(`operator.moderation.mail.next_${review}`, vars)];
  return framedMail(locale, {
    to,
    subject: t(`operator.moderation.mail.subject_${review}`, vars),
    kind: `moderation_${review}`,
    greeting: t('mail.greeting', { name: given.name }),
    paragraphs,
  });
}
