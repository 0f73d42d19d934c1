import { useRef, useState, type FormEvent } from 'react';
import { api, ApiFailure } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { dateText } from '../../lib/date-text';
import { applyAuth, type AuthAnswer } from './auth-actions';
import { AuthForm, bind, Field, FormAlert, PasswordField, SubmitButton, VERBATIM, type PostedFailure } from '../../ui/form';
import { bodyMessage } from '../../ui/api-failure';
import { errorText } from '../../ui/error-text';
import { useFocusWhen } from '../../ui/use-focus-when';

/** The login error rules: 422/401 with a code -> its text, without -> unknown credentials. */
export function loginErrorCode(e: unknown): string {
  if (!(e instanceof ApiFailure)) return 'unknown_error';
  if (e.status === 429) return 'too_many_attempts';
  if (e.status === 422 || e.status === 401) return bodyMessage(e) ?? 'unknown_credentials';
  return 'unknown_error';
}

/** The text of a login refusal; a throttled one says how long to wait (Retry-After, in whole minutes). */
export function loginErrorText(t: ReturnType<typeof useT>, code: string, retryAfter?: number | null): string {
  if (code === 'too_many_attempts' && retryAfter) return t('errors.too_many_attempts_wait', { count: Math.ceil(retryAfter / 60) });
  return errorText(t, code);
}

export interface LoginFormProps {
  idPrefix: string;
  /** After the store got the member. */
  onSuccess?: (res: AuthAnswer) => void;
  onForgot?: (login: string) => void;
  autoFocus?: boolean;
  initialLogin?: string;
  /** Where a login posted without script goes on to (a hidden field of the form). */
  redirect?: string | null;
  /** The server's answer to the same form posted without script. */
  failure?: PostedFailure | null;
}

/** Username or e-mail and password; POST auth/login. */
export function LoginForm({ idPrefix, onSuccess, onForgot, autoFocus, initialLogin = '', redirect, failure }: LoginFormProps) {
  const store = useStore();
  const { locale } = useSnap();
  const t = useT();
  const [login, setLogin] = useState(failure?.values.username ?? initialLogin);
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(failure?.code ? loginErrorText(t, failure.code, failure.retryAfter) : null);
  const [fields, setFields] = useState<{ username?: string; password?: string }>({ username: failure?.fields.username, password: failure?.fields.password });
  const loginRef = useFocusWhen<HTMLInputElement>(autoFocus);
  const passwordRef = useRef<HTMLInputElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    const missing = { username: login.trim() ? undefined : 'required', password: password ? undefined : 'required' };
    if (missing.username || missing.password) {
      setFields(missing);
      setError(null);
      (missing.username ? loginRef : passwordRef).current?.focus();
      return;
    }
    setFields({});
    setError(null);
    setLoading(true);
    try {
      const res = await api().post<AuthAnswer>('auth/login', { username: login.trim(), password });
      applyAuth(store, res);
      showSnackbar(store, t('auth.login.welcome', { name: res.user.name }));
      onSuccess?.(res);
    } catch (err) {
      setLoading(false);
      // A suspension says until when (issue 29: the answer carries its end).
      const until = err instanceof ApiFailure ? (err.body as { ends_at?: unknown } | null)?.ends_at : null;
      setError(typeof until === 'number' ? t('errors.account_suspended_until', { date: dateText(until, locale) }) : loginErrorText(t, loginErrorCode(err), err instanceof ApiFailure ? err.retryAfter : null));
      setPassword('');
      requestAnimationFrame(() => passwordRef.current?.focus());
    }
  }

  return (
    <AuthForm name="login" action="/login" onSubmit={submit}>
      {redirect && <input type="hidden" name="redirect" value={redirect} />}
      {error && (
        <FormAlert kind="error" testId="login-error">
          {error}
        </FormAlert>
      )}
      <Field
        id={`${idPrefix}-username`}
        name="username"
        label={t('auth.login.username')}
        autoComplete="username"
        {...VERBATIM}
        inputRef={loginRef}
        {...bind(login, setLogin)}
        error={fields.username ? errorText(t, fields.username) : null}
        required
      />
      <PasswordField
        id={`${idPrefix}-password`}
        name="password"
        label={t('auth.login.password')}
        autoComplete="current-password"
        inputRef={passwordRef}
        {...bind(password, setPassword)}
        error={fields.password ? errorText(t, fields.password) : null}
      />
      {onForgot && (
        <p className="auth-forgot">
          <a
            href={`/users/reset${login.trim() ? `?email=${encodeURIComponent(login.trim())}` : ''}`}
            data-action="forgot"
            onClick={(e) => {
              e.preventDefault();
              onForgot(login.trim());
            }}
          >
            {t('auth.login.forgot')}
          </a>
        </p>
      )}
      <SubmitButton loading={loading}>{t('auth.login.submit')}</SubmitButton>
    </AuthForm>
  );
}
