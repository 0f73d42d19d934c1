import { useState } from 'react';
import { ANSWER_MAX, ANSWER_MIN, APPEAL_OUTCOMES, CONTENT_APPEAL_OUTCOMES } from '../../../shared/restrictions';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/**
 * Decides an appeal, with the answer its author is mailed: against an account's restriction
 * (upheld or lifted), or, with `content`, against the removal or refusal of an upload (upheld or
 * reinstated; texts under operator.appeals.content).
 */
export default function AppealDecision({ appealId, content = false }: { appealId: number; content?: boolean }) {
  const t = useT();
  const [done, setDone] = useState<string | null>(null);
  const form = useApiForm({ outcome: 'upheld', answer: '' });
  const texts = content ? 'operator.appeals.content' : 'operator.appeals';
  const key = content ? `content-appeal-${appealId}` : `appeal-${appealId}`;
  const submit = form.submit(
    (v): Errors => {
      const n = v.answer.trim().length;
      return n < ANSWER_MIN ? { answer: t('errors.too_short') } : n > ANSWER_MAX ? { answer: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/${content ? 'content-appeals' : 'appeals'}/${appealId}/decide`, { outcome: v.outcome, answer: v.answer.trim() });
      setDone(v.outcome);
    },
    ['outcome', 'answer'],
  );
  if (done) {
    return (
      <p className="form-note" role="status" data-testid="appeal-decided" data-outcome={done}>
        {t(`${texts}.decided_${done}`)}
      </p>
    );
  }
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="appeal-decision">
      <SelectField
        id={`${key}-outcome`}
        name="outcome"
        label={t('operator.appeals.outcome')}
        options={(content ? CONTENT_APPEAL_OUTCOMES : APPEAL_OUTCOMES).map((o) => ({ value: o, label: t(`${texts}.outcomes.${o}`) }))}
        {...form.field('outcome')}
      />
      <TextAreaField id={`${key}-answer`} name="answer" label={t(`${texts}.answer`)} rows={3} maxLength={ANSWER_MAX} {...form.field('answer')} />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.appeals.submit')}</SubmitButton>
    </form>
  );
}
