import { REASON_CATEGORIES } from '../../../shared/operator';
import { REASON_MAX, REASON_MIN, RESTRICTION_KINDS, SUSPENSION_DAYS_MAX } from '../../../shared/restrictions';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { Field, FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** Bans or suspends the account, with the statement of reasons the account is mailed (issue 29 point 4). */
export default function RestrictForm({ userId }: { userId: number }) {
  const t = useT();
  const form = useApiForm({ kind: 'suspension', reason_category: 'terms_other', days: '7', reason: '' });
  const suspension = form.values.kind === 'suspension';

  const submit = form.submit(
    (v): Errors => {
      const e: Errors = {};
      const days = Number(v.days);
      if (v.kind === 'suspension' && !(Number.isInteger(days) && days >= 1 && days <= SUSPENSION_DAYS_MAX)) e.days = t('errors.days_invalid');
      const n = v.reason.trim().length;
      if (n < REASON_MIN) e.reason = t('errors.too_short');
      else if (n > REASON_MAX) e.reason = t('errors.too_long');
      return e;
    },
    async (v) => {
      await api().post(`operator/users/${userId}/restrictions`, {
        kind: v.kind,
        reason_category: v.reason_category,
        reason: v.reason.trim(),
        ...(v.kind === 'suspension' ? { days: Number(v.days) } : {}),
      });
      location.reload();
    },
    ['kind', 'reason_category', 'days', 'reason'],
  );

  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="restrict-form">
      <SelectField
        id="restrict-kind"
        name="kind"
        label={t('operator.restrict.kind')}
        options={RESTRICTION_KINDS.map((k) => ({ value: k, label: t(`restriction.kinds.${k}`) }))}
        {...form.field('kind')}
      />
      <SelectField
        id="restrict-category"
        name="reason_category"
        label={t('operator.restrict.category')}
        options={REASON_CATEGORIES.map((k) => ({ value: k, label: t(`restriction.categories.${k}`) }))}
        {...form.field('reason_category')}
      />
      {suspension && <Field id="restrict-days" name="days" type="number" inputMode="numeric" min={1} max={SUSPENSION_DAYS_MAX} label={t('operator.restrict.days')} {...form.field('days')} />}
      <TextAreaField
        id="restrict-reason"
        name="reason"
        label={t('operator.restrict.reason')}
        hint={t('operator.restrict.reasonHint', { min: REASON_MIN, max: REASON_MAX })}
        maxLength={REASON_MAX}
        {...form.field('reason')}
      />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t(suspension ? 'operator.restrict.submitSuspension' : 'operator.restrict.submitBan')}</SubmitButton>
    </form>
  );
}
