import type { Locale } from '../../../shared/constants';
import type { ReviewState } from '../../../shared/uploads';
import type { Bindings } from '../../env';
import { mailOrigin } from '../../lib/config';
import { i18nFor } from '../../lib/i18n';
import { mailerFor, type Mail } from '../../lib/mailer';
import { framedMail } from '../../lib/mail-templates';
import { showPerformerContact, type Decided } from './moderation.repo';

// The performer's mail about an operator's decision on their upload (texts under
// operator.moderation.mail), in their language, in the frame of every mail: a review's decision,
// or an item taken out of the store on a report.

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

/** Mails the show's performer the decision on their item (nothing when the show has no studio login or mail is not configured). */
export async function mailModerationDecision(env: Bindings, decided: Decided, review: Exclude<ReviewState, 'pending'>, reason: string | null): Promise<void> {
  const [performer, origin] = [await showPerformerContact(env.DB, decided.show_id), mailOrigin(env)];
  if (!performer || !origin) return;
  const locale: Locale = performer.locale === 'de' ? 'de' : 'en';
  const title = locale === 'de' ? decided.title_de : decided.title_en;
  await mailerFor(env).send(moderationMail(review, locale, performer.email, { name: performer.name, title, reason, origin }));
}
