import { useState, type FormEvent } from 'react';
import { APPLICATION_COUNTRIES, DOCUMENT_ACCEPT, STAGE_NAME_MAX, type MyApplication, type ShowInvite } from '../../../shared/applications';
import { ApiFailure, csrfToken } from '../../lib/api';
import { CSRF_HEADER } from '../../../shared/constants';
import { useSnap, useT } from '../../state/context';
import { SelectField } from '../../ui/choice-fields';
import { Field, FormError, SubmitButton, type Errors } from '../../ui/form';

const FIELDS = ['join_show', 'legal_name', 'date_of_birth', 'country', 'stage_name', 'consent', 'id_document', 'selfie'] as const;

/** Sends the form as multipart (two files) with the CSRF header; a refusal becomes an ApiFailure. */
async function send(form: HTMLFormElement): Promise<MyApplication> {
  if (!csrfToken()) await fetch('/api/auth/csrf-cookie', { credentials: 'same-origin' });
  const res = await fetch('/api/applications', { method: 'POST', body: new FormData(form), credentials: 'same-origin', headers: { [CSRF_HEADER]: csrfToken() ?? '', Accept: 'application/json' } });
  const body = (await res.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string[]>; application?: MyApplication };
  if (!res.ok) throw new ApiFailure(res.status, body.message ?? 'server_error', body.errors ?? {}, body);
  return body.application!;
}

/**
 * The application form (/apply): the fields, an ID document and a selfie; the server checks
 * everything again. A member invited by shows may apply to join one of them as a co-performer.
 */
export default function ApplyForm({ onSent, invites = [] }: { onSent?: (a: MyApplication) => void; invites?: ShowInvite[] }) {
  const t = useT();
  const snap = useSnap();
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<MyApplication | null>(null);
  const [country, setCountry] = useState('');
  const [joinShow, setJoinShow] = useState('');
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames([snap.locale], { type: 'region' }) : null;
  const countries = APPLICATION_COUNTRIES.map((c) => ({ value: c, label: names?.of(c) ?? c })).sort((a, b) => a.label.localeCompare(b.label, snap.locale));

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setGeneral(null);
    try {
      const a = await send(e.currentTarget);
      setSent(a);
      onSent?.(a);
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, 'network_error');
      const found: Errors = {};
      for (const f of FIELDS) if (failure.errors[f]?.[0]) found[f] = t(`errors.${failure.errors[f][0]}`);
      setErrors(found);
      setGeneral(Object.keys(found).length ? t('applications.form.fix') : t(`errors.${failure.message}`, { defaultValue: t('errors.server_error') }));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <p className="form-note" role="status" data-testid="apply-sent">
        {t('applications.state.submitted', { stage_name: sent.stage_name })}
      </p>
    );
  }
  const fileField = (name: 'id_document' | 'selfie') => (
    <div className={errors[name] ? 'field has-error' : 'field'} data-field={name}>
      <label htmlFor={`apply-${name}`}>{t(`applications.form.${name}`)}</label>
      <input id={`apply-${name}`} name={name} type="file" accept={DOCUMENT_ACCEPT} required aria-invalid={errors[name] ? true : undefined} aria-describedby={`apply-${name}-hint${errors[name] ? ` apply-${name}-error` : ''}`} />
      <p id={`apply-${name}-hint`} className="field-hint">
        {t('applications.form.fileHint')}
      </p>
      {errors[name] && (
        <p id={`apply-${name}-error`} className="field-error" role="alert">
          {errors[name]}
        </p>
      )}
    </div>
  );
  return (
    <form className="pf-form apply-form" onSubmit={submit} noValidate encType="multipart/form-data" data-testid="apply-form">
      {invites.length > 0 && (
        <SelectField
          id="apply-join-show"
          name="join_show"
          label={t('applications.form.join_show')}
          hint={t('applications.form.joinHint')}
          error={errors.join_show}
          value={joinShow}
          onChange={(e) => setJoinShow(e.target.value)}
          options={[{ value: '', label: t('applications.form.ownShow') }, ...invites.map((i) => ({ value: String(i.show_id), label: i.show_name }))]}
        />
      )}
      <Field id="apply-legal-name" name="legal_name" label={t('applications.form.legal_name')} autoComplete="name" required error={errors.legal_name} maxLength={100} />
      <Field id="apply-dob" name="date_of_birth" type="date" label={t('applications.form.date_of_birth')} autoComplete="bday" required error={errors.date_of_birth} />
      <SelectField
        id="apply-country"
        name="country"
        label={t('applications.form.country')}
        error={errors.country}
        value={country}
        onChange={(e) => setCountry(e.target.value)}
        options={[{ value: '', label: t('applications.form.choose') }, ...countries]}
      />
      <Field id="apply-stage-name" name="stage_name" label={t('applications.form.stage_name')} hint={t('applications.form.stageHint')} required error={errors.stage_name} maxLength={STAGE_NAME_MAX} />
      {fileField('id_document')}
      {fileField('selfie')}
      <div className={errors.consent ? 'field has-error' : 'field'} data-field="consent">
        <label className="check">
          <input type="checkbox" name="consent" value="yes" required /> {t('applications.form.consent')}
        </label>
        {errors.consent && (
          <p className="field-error" role="alert">
            {errors.consent}
          </p>
        )}
      </div>
      <FormError text={general} />
      <SubmitButton loading={busy}>{t('applications.form.submit')}</SubmitButton>
    </form>
  );
}
