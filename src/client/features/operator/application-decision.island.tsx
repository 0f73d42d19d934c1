import { useState } from 'react';
import { APPLICATION_DECISIONS } from '../../../shared/applications';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

const REASON_MIN = 3;
const REASON_MAX = 2000;

/** Approves an application (the show and the studio login are made), rejects it or asks for more, with the message the applicant is mailed. */
export default function ApplicationDecision({ id }: { id: number }) {
  const t = useT();
  const [done, setDone] = useState<string | null>(null);
  const form = useApiForm({ decision: 'approve', reason: '' });
  const submit = form.submit(
    (v): Errors => {
      const n = v.reason.trim().length;
      return n < REASON_MIN ? { reason: t('errors.too_short') } : n > REASON_MAX ? { reason: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/applications/${id}/decide`, { decision: v.decision, reason: v.reason.trim() });
      setDone(v.decision);
    },
    ['decision', 'reason'],
  );
  if (done) {
    return (
      <p className="form-note" role="status" data-testid="application-decided" data-decision={done}>
        {t(`operator.applications.decided_${done}`)}
      </p>
    );
  }
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="application-decision">
      <SelectField
        id={`application-decision-${id}`}
        name="decision"
        label={t('operator.applications.decision')}
        options={APPLICATION_DECISIONS.map((d) => ({ value: d, label: t(`operator.applications.decisions.${d}`) }))}
        {...form.field('decision')}
      />
      <TextAreaField
        id={`application-reason-${id}`}
        name="reason"
        label={t('operator.applications.reason')}
        hint={t('operator.applications.reasonHint')}
        rows={3}
        maxLength={REASON_MAX}
        {...form.field('reason')}
      />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.applications.submit')}</SubmitButton>
    </form>
  );
}
