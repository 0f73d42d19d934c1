import { REASON_MAX, REASON_MIN } from '../../../shared/restrictions';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** Lifts an active ban or suspension, with the reason the account is mailed. */
export default function LiftForm({ restrictionId }: { restrictionId: number }) {
  const t = useT();
  const form = useApiForm({ reason: '' });
  const submit = form.submit(
    (v): Errors => {
      const n = v.reason.trim().length;
      return n < REASON_MIN ? { reason: t('errors.too_short') } : n > REASON_MAX ? { reason: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/restrictions/${restrictionId}/lift`, { reason: v.reason.trim() });
      location.reload();
    },
    ['reason'],
  );
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="lift-form">
      <TextAreaField id={`lift-reason-${restrictionId}`} name="reason" label={t('operator.lift.reason')} rows={3} maxLength={REASON_MAX} {...form.field('reason')} />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.lift.submit')}</SubmitButton>
    </form>
  );
}
