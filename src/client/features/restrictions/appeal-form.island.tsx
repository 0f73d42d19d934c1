import { useState } from 'react';
import { APPEAL_MAX, APPEAL_MIN } from '../../../shared/restrictions';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** The restricted account's appeal against its ban or suspension (by the mailed link's token). */
export default function AppealForm({ token }: { token: string }) {
  const t = useT();
  const [sent, setSent] = useState(false);
  const form = useApiForm({ text: '' });
  const submit = form.submit(
    (v): Errors => {
      const n = v.text.trim().length;
      return n < APPEAL_MIN ? { text: t('errors.too_short') } : n > APPEAL_MAX ? { text: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`restrictions/${token}/appeal`, { text: v.text.trim() });
      setSent(true);
    },
    ['text'],
  );
  if (sent) {
    return (
      <p className="form-note" role="status" data-testid="appeal-sent">
        {t('restriction.appeal.sent')}
      </p>
    );
  }
  return (
    <form className="pf-form restriction-appeal" onSubmit={submit} noValidate data-testid="appeal-form">
      <TextAreaField
        id="appeal-text"
        name="text"
        label={t('restriction.appeal.label')}
        hint={t('restriction.appeal.hint', { min: APPEAL_MIN, max: APPEAL_MAX })}
        rows={6}
        maxLength={APPEAL_MAX}
        {...form.field('text')}
      />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('restriction.appeal.submit')}</SubmitButton>
    </form>
  );
}
