import { useState } from 'react';
import { MODERATION_REASON_MAX, MODERATION_REASON_MIN } from '../../../shared/moderation';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** Stops a live show with the reason its performer reads in the studio: offline at once, every session ended. */
export default function LiveStop({ showId }: { showId: number }) {
  const t = useT();
  const [done, setDone] = useState(false);
  const form = useApiForm({ reason: '' });
  const submit = form.submit(
    (v): Errors => {
      const n = v.reason.trim().length;
      return n < MODERATION_REASON_MIN ? { reason: t('errors.too_short') } : n > MODERATION_REASON_MAX ? { reason: t('errors.too_long') } : {};
    },
    async (v) => {
      await api().post(`operator/shows/${showId}/stop`, { reason: v.reason.trim() });
      setDone(true);
    },
    ['reason'],
  );
  if (done) {
    return (
      <p className="form-note" role="status" data-testid="live-stopped">
        {t('operator.live.stopped')}
      </p>
    );
  }
  return (
    <form className="pf-form operator-form" onSubmit={submit} noValidate data-testid="live-stop">
      <TextAreaField
        id={`live-stop-reason-${showId}`}
        name="reason"
        label={t('operator.live.reason')}
        hint={t('operator.moderation.reasonHint', { min: MODERATION_REASON_MIN, max: MODERATION_REASON_MAX })}
        rows={2}
        maxLength={MODERATION_REASON_MAX}
        {...form.field('reason')}
      />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.live.stop')}</SubmitButton>
    </form>
  );
}
