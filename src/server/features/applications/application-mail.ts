import type { ApplicationState } from '../../../shared/applications';
import type { Locale } from '../../../shared/constants';
import { i18nFor } from '../../lib/i18n';
import type { Mail } from '../../lib/mailer';
import { framedMail } from '../../lib/mail-templates';

// The applicant's mail about an operator's decision (texts under applications.mail), in their
// language, in the frame of every mail (lib/mail-templates.ts framedMail).

export function applicationMail(state: ApplicationState, locale: Locale, to: string, given: { name: string; stageName: string; reason: string; origin: string }): Mail {
  const t = i18nFor(locale).t;
  const brand = t('common.brand');
  const link = `${given.origin}${state === 'approved' ? '/studio' : '/apply'}`;
  const vars = { brand, stage_name: given.stageName, link };
  const subject = t(`applications.mail.subject_${state}`, vars);
  const paragraphs = [t(`applications.mail.${state}`, vars), `${t('applications.mail.message')}\n${given.reason}`, t(`applications.mail.next_${state}`, vars)];
  return framedMail(locale, { to, subject, kind: `application_${state}`, greeting: t('mail.greeting', { name: given.name }), paragraphs });
}
