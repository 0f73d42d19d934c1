import { useState } from 'react';
import type { SecondFactorEnrolment } from '../../../shared/operator';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { Field, FormError, SubmitButton, useApiForm, VERBATIM, type Errors } from '../../ui/form';

/**
 * The operator's second factor: a new operator first gets a secret for their authenticator app
 * (shown until its first code is given, never after), then every login asks for a 6-digit code.
 */
export default function SecondFactor({ enrolled, redirect }: { enrolled: boolean; redirect: string }) {
  const t = useT();
  const [enrolment, setEnrolment] = useState<SecondFactorEnrolment | null>(null);
  const [enrolError, setEnrolError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useApiForm({ code: '' });

  const enrol = async () => {
    setBusy(true);
    setEnrolError(null);
    try {
      setEnrolment(await api().post<SecondFactorEnrolment>('operator/second-factor/enrol', {}));
    } catch {
      setEnrolError(t('operator.secondFactor.enrolFailed'));
    } finally {
      setBusy(false);
    }
  };

  const submit = form.submit(
    (v): Errors => (/^\s*\d{6}\s*$/.test(v.code) ? {} : { code: t('errors.code_invalid') }),
    async ({ code }) => {
      await api().post('operator/second-factor/verify', { code: code.trim() });
      location.assign(redirect);
    },
    ['code'],
  );

  if (!enrolled && !enrolment) {
    return (
      <div className="second-factor" data-testid="second-factor" data-step="start">
        <ol className="second-factor-steps">
          <li>{t('operator.secondFactor.stepApp')}</li>
          <li>{t('operator.secondFactor.stepKey')}</li>
          <li>{t('operator.secondFactor.stepCode')}</li>
        </ol>
        <FormError text={enrolError} />
        <button type="button" className="btn btn-primary" onClick={() => void enrol()} disabled={busy} data-action="second-factor-enrol">
          {t('operator.secondFactor.showKey')}
        </button>
      </div>
    );
  }

  return (
    <form className="second-factor pf-form" onSubmit={submit} noValidate data-testid="second-factor" data-step={enrolment ? 'enrol' : 'code'}>
      {enrolment && (
        <div className="second-factor-key">
          <p>{t('operator.secondFactor.keyLead')}</p>
          <p className="second-factor-secret" data-testid="second-factor-secret" data-secret={enrolment.secret}>
            <code>{enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          <p className="small">
            <a href={enrolment.uri}>{t('operator.secondFactor.openApp')}</a>
          </p>
          <p className="muted small">{t('operator.secondFactor.keyOnce')}</p>
        </div>
      )}
      <Field
        id="second-factor-code"
        name="code"
        label={t('operator.secondFactor.code')}
        hint={t('operator.secondFactor.codeHint')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        {...VERBATIM}
        {...form.field('code')}
      />
      <FormError text={form.general} />
      <SubmitButton loading={form.busy}>{t('operator.secondFactor.submit')}</SubmitButton>
    </form>
  );
}
