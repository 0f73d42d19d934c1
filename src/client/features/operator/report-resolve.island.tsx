import { useState } from 'react';
import { REMOVABLE_TARGETS, REPORT_OUTCOMES, REPORT_TEXT_MAX, REPORT_TEXT_MIN, type ReportTarget } from '../../../shared/reports';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { SelectField, TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** Resolves a report: the outcome (removal only for what can be removed) and the reasons the reporter is mailed. */
export default function ReportResolve({ reportId, kind }: { reportId: number; kind: ReportTarget }) {
  const t = useT();
  const [done, setDone] = useState<string | null>(null);
  const form = useApiForm({ outcome: 'no_action', outcome_text: '' });
  const submit = form.submit(
    (v): Errors => {
      const n = v.outcome_text.trim().length;
      return n < REPORT_TEXT_MIN ? { outcome_text: t('errors.too_short') } : n > REPORT_TEXT_MAX ? { outcome_text: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/reports/${reportId}/resolve`, { outcome: v.outcome, outcome_text: v.outcome_text.trim() });
      setDone(v.outcome);
    },
    ['outcome', 'outcome_text'],
  );
  if (done) {
    return (
      <p className="form-note" role="status" data-testid="report-resolved" data-outcome={done}>
        {t('operator.reports.resolved')}
      </p>
    );
  }
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="report-resolve">
      <SelectField
        id={`report-outcome-${reportId}`}
        name="outcome"
        label={t('operator.reports.outcome')}
        options={REPORT_OUTCOMES.filter((o) => o !== 'removed' || REMOVABLE_TARGETS.includes(kind)).map((o) => ({ value: o, label: t(`operator.reports.outcomes.${o}`) }))}
        {...form.field('outcome')}
      />
      <TextAreaField id={`report-text-${reportId}`} name="outcome_text" label={t('operator.reports.outcome_text')} rows={3} maxLength={REPORT_TEXT_MAX} {...form.field('outcome_text')} />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.reports.submit')}</SubmitButton>
    </form>
  );
}
