import { useState } from 'react';
import { MODERATION_REASON_MAX, MODERATION_REASON_MIN, type ModerationKind } from '../../../shared/moderation';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** Approves an upload (it reaches the store) or rejects it with the reason its performer reads. */
export default function ModerationDecision({ kind, id }: { kind: ModerationKind; id: number }) {
  const t = useT();
  const [done, setDone] = useState<string | null>(null);
  const form = useApiForm({ decision: 'approve', reason: '' });
  const submit = form.submit(
    (v): Errors => {
      if (v.decision !== 'reject') return {};
      const n = v.reason.trim().length;
      return n < MODERATION_REASON_MIN ? { reason: t('errors.too_short') } : n > MODERATION_REASON_MAX ? { reason: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/moderation/${kind}/${id}`, v.decision === 'reject' ? { decision: 'reject', reason: v.reason.trim() } : { decision: 'approve' });
      setDone(v.decision);
    },
    ['decision', 'reason'],
  );
  if (done) {
    return (
      <p className="form-note" role="status" data-testid="moderation-decided" data-decision={done}>
        {t(`operator.moderation.decided_${done}`)}
      </p>
    );
  }
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="moderation-decision">
      <SelectField
        id={`moderation-decision-${kind}-${id}`}
        name="decision"
        label={t('operator.moderation.decision')}
        options={(['approve', 'reject'] as const).map((d) => ({ value: d, label: t(`operator.moderation.decisions.${d}`) }))}
        {...form.field('decision')}
      />
      {form.values.decision === 'reject' && (
        <TextAreaField
          id={`moderation-reason-${kind}-${id}`}
          name="reason"
          label={t('operator.moderation.reason')}
          hint={t('operator.moderation.reasonHint', { min: MODERATION_REASON_MIN, max: MODERATION_REASON_MAX })}
          rows={3}
          maxLength={MODERATION_REASON_MAX}
          {...form.field('reason')}
        />
      )}
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.moderation.submit')}</SubmitButton>
    </form>
  );
}
