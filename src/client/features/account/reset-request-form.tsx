import { useState, type FormEvent } from 'react';
import { api, ApiFailure } from '../../lib/api';
import { useT } from '../../state/context';
import { AuthForm, bind, Field, FormAlert, SubmitButton, VERBATIM } from '../../ui/form';
import { bodyMessage } from '../../ui/api-failure';
import { errorText } from '../../ui/error-text';
import { link, Rich } from '../../ui/rich';
import { useFocusWhen } from '../../ui/use-focus-when';

type Failure = { kind: 'blocked' } | { kind: 'text'; text: string };

/** The reset rules: blocked -> contact link; other 422/401 -> unknown credentials. */
function resetFailure(e: unknown): { kind: 'blocked' } | { kind: 'code'; code: string } {
  if (!(e instanceof ApiFailure)) return { kind: 'code', code: 'unknown_error' };
  if (e.status === 429) return { kind: 'code', code: 'too_many_attempts' };
  if (e.status === 422 && bodyMessage(e) === 'user_blocked') return { kind: 'blocked' };
  if (e.status === 422 || e.status === 401) return { kind: 'code', code: 'unknown_credentials' };
  return { kind: 'code', code: 'unknown_error' };
}

export interface ResetRequestFormProps {
  idPrefix: string;
  initialLogin?: string;
  /** Shows a "back to login" button (inside the login box). */
  onBack?: () => void;
  autoFocus?: boolean;
}

/** E-mail or username -> POST auth/send -> the "sent" state with instructions. */
export function ResetRequestForm({ idPrefix, initialLogin = '', onBack, autoFocus }: ResetRequestFormProps) {
  const t = useT();
  const [login, setLogin] = useState(initialLogin);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const inputRef = useFocusWhen<HTMLInputElement>(autoFocus);
  const sentRef = useFocusWhen<HTMLHeadingElement>(sent);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    if (!login.trim()) {
      setFieldError(errorText(t, 'required'));
      setFailure(null);
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setFailure(null);
    setLoading(true);
    try {
      await api().post('auth/send', { email: login.trim() });
      setSent(true);
    } catch (err) {
      const f = resetFailure(err);
      setFailure(f.kind === 'blocked' ? f : { kind: 'text', text: errorText(t, f.code) });
      inputRef.current?.focus();
    } finally {
      setLoading(false);
    }
  }

  const back = onBack && (
    <button type="button" className="btn btn-text auth-back" onClick={onBack} data-action="back-to-login">
      {t('auth.common.backToLogin')}
    </button>
  );

  if (sent) {
    return (
      <div className="auth-sent" data-state="sent">
        <div className="auth-sent-icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="40" height="40">
            <path fill="currentColor" d="M20 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2zm0 4-8 5-8-5V6l8 5 8-5v2z" />
          </svg>
        </div>
        <h2 ref={sentRef} tabIndex={-1}>
          {t('auth.reset.sentTitle')}
        </h2>
        <p role="status">{t('auth.reset.sent')}</p>
        <p className="muted small">{t('auth.reset.spam')}</p>
        {back}
      </div>
    );
  }

  return (
    <AuthForm name="reset-request" lead={t('auth.reset.lead')} onSubmit={submit}>
      {failure && (
        <FormAlert kind="error" testId="reset-error">
          {failure.kind === 'blocked' ? <Rich text={t('auth.reset.blocked')} parts={{ contact: link('/contact#contact') }} /> : failure.text}
        </FormAlert>
      )}
      <Field
        id={`${idPrefix}-reset-login`}
        name="email"
        label={t('auth.reset.login')}
        autoComplete="username"
        {...VERBATIM}
        inputRef={inputRef}
        {...bind(login, setLogin)}
        error={fieldError}
        required
      />
      <SubmitButton loading={loading}>{t('auth.reset.submit')}</SubmitButton>
      {back}
    </AuthForm>
  );
}
