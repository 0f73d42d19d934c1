import { useState } from 'react';
import { ANSWER_MAX, ANSWER_MIN, APPEAL_OUTCOMES } from '../../../shared/restrictions';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** Decides an appeal: the restriction upheld or lifted, with the answer the account is mailed. */
export default function AppealDecision({ appealId }: { appealId: number }) {
  const t = useT();
  const [done, setDone] = useState<string | null>(null);
  const form = useApiForm({ outcome: 'upheld', answer: '' });
  const submit = form.submit(
    (v): Errors => {
      const n = v.answer.trim().length;
      return n < ANSWER_MIN ? { answer: t('errors.too_short') } : n > ANSWER_MAX ? { answer: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/appeals/${appealId}/decide`, { outcome: v.outcome, answer: v.answer.trim() });
      setDone(v.outcome);
    },
    ['outcome', 'answer'],
  );
  if (done) {
    return (
      <p className="form-note" role="status" data-testid="appeal-decided" data-outcome={done}>
        {t(`operator.appeals.decided_${done}`)}
      </p>
    );
  }
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="appeal-decision">
      <SelectField
        id={`appeal-outcome-${appealId}`}
        name="outcome"
        label={t('operator.appeals.outcome')}
        options={APPEAL_OUTCOMES.map((o) => ({ value: o, label: t(`operator.appeals.outcomes.${o}`) }))}
        {...form.field('outcome')}
      />
      <TextAreaField id={`appeal-answer-${appealId}`} name="answer" label={t('operator.appeals.answer')} rows={3} maxLength={ANSWER_MAX} {...form.field('answer')} />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.appeals.submit')}</SubmitButton>
    </form>
  );
}
