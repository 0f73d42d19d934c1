import { useState } from 'react';
import { APPEAL_MAX, APPEAL_MIN, type ContentKind } from '../../../shared/restrictions';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { TextAreaField } from '../../ui/choice-fields';
import { FormError, SubmitButton, useApiForm, type Errors } from '../../ui/form';

/** What is appealed: a restricted account's restriction (by the mailed link's token), or the removal of one of the show's uploads (the studio). */
type Appealed = { token: string; item?: undefined } | { item: { kind: ContentKind; id: number }; token?: undefined };

/**
 * An appeal: against an account's ban or suspension (an island on the statement's page), or, in
 * the studio, against the removal or refusal of an upload (texts under studio.uploads.appeal,
 * `onSent` when it has been filed).
 */
export default function AppealForm(props: Appealed & { onSent?: () => void }) {
  const t = useT();
  const [sent, setSent] = useState(false);
  const form = useApiForm({ text: '' });
  const texts = props.item ? 'studio.uploads.appeal' : 'restriction.appeal';
  const id = props.item ? `appeal-text-${props.item.kind}-${props.item.id}` : 'appeal-text';
  const submit = form.submit(
    (v): Errors => {
      const n = v.text.trim().length;
      return n < APPEAL_MIN ? { text: t('errors.too_short') } : n > APPEAL_MAX ? { text: t('errors.too_long') } : {};
    },
    async (v) => {
      const text = v.text.trim();
      if (props.item) await api().post('studio/appeals', { ...props.item, text });
      else await api().post(`restrictions/${props.token}/appeal`, { text });
      setSent(true);
      props.onSent?.();
    },
    ['text'],
  );
  if (sent) {
    return (
      <p className="form-note" role="status" data-testid="appeal-sent">
        {t(`${texts}.sent`)}
      </p>
    );
  }
  return (
    <form className="pf-form restriction-appeal" onSubmit={submit} noValidate data-testid="appeal-form">
      <TextAreaField id={id} name="text" label={t(`${texts}.label`)} hint={t(`${texts}.hint`, { min: APPEAL_MIN, max: APPEAL_MAX })} rows={6} maxLength={APPEAL_MAX} {...form.field('text')} />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t(`${texts}.submit`)}</SubmitButton>
    </form>
  );
}
