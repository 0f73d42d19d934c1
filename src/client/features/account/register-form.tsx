import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiFailure } from '../../lib/api';
import { useStore, useT } from '../../state/context';
import { applyAuth, go, type AuthAnswer } from './auth-actions';
import { AuthForm, AuthIcon, bind, Field, PasswordField, Spinner, SubmitButton, VERBATIM, type PostedFailure } from '../../ui/form';
import { bodyMessage, fieldCodes } from '../../ui/api-failure';
import { errorText } from '../../ui/error-text';
import { link, Rich } from '../../ui/rich';
import { MailSuggestion, RegisterNotice, type Notice } from './register-notices';
import { useFocusWhen } from '../../ui/use-focus-when';
import { useMailSuggestion, useVoucherCheck } from './register-checks';

type FieldName = 'email' | 'code' | 'password' | 'username' | 'terms_check';
const FIELD_ORDER: FieldName[] = ['email', 'code', 'password', 'username', 'terms_check'];

export interface RegisterFormProps {
  idPrefix: string;
  initialEmail?: string;
  initialCode?: string;
  autoFocus?: boolean;
  /** The server's answer to the same form posted without script. */
  failure?: PostedFailure | null;
}

/** The notice of a refused sign-up: the address exists, the account is blocked, or a general error. */
function failureNotice(t: (key: string) => string, failure: PostedFailure | null | undefined): Notice {
  if (!failure?.code) return null;
  if (failure.code === 'exists') return { kind: 'exists', email: failure.values.email ?? '' };
  if (failure.code === 'user_blocked') return { kind: 'blocked' };
  return { kind: 'error', text: errorText(t, failure.code) };
}

/** Registration: e-mail (with typo suggestion), voucher check, password, username, terms. */
export function RegisterForm({ idPrefix, initialEmail = '', initialCode = '', autoFocus, failure }: RegisterFormProps) {
  const store = useStore();
  const t = useT();
  const [email, setEmail] = useState(failure?.values.email ?? initialEmail);
  const [suggestion, setSuggestion] = useMailSuggestion(email);
  const [code, setCode] = useState(failure?.values.code ?? initialCode);
  const [password, setPassword] = useState('');
  const [username, setUsername] = useState(failure?.values.username ?? '');
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>(() =>
    Object.fromEntries(FIELD_ORDER.filter((f) => failure?.fields[f]).map((f) => [f, errorText(t, failure?.fields[f] ?? '')])),
  );
  const [notice, setNotice] = useState<Notice>(() => failureNotice(t, failure));
  const [loading, setLoading] = useState(false);
  const refs = {
    email: useRef<HTMLInputElement>(null),
    code: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    username: useRef<HTMLInputElement>(null),
    terms_check: useRef<HTMLInputElement>(null),
  };
  const noticeRef = useFocusWhen<HTMLDivElement>(notice);
  // A changed code is checked again: its old error goes.
  const [voucher, setVoucher] = useVoucherCheck(code, t, () => setErrors((e) => (e.code ? { ...e, code: undefined } : e)));

  useEffect(() => {
    if (autoFocus) refs.email.current?.focus();
  }, [autoFocus]);

  // A notice (exists, blocked, error) takes the focus so it is read and its link is one Tab away.

  function focusFirst(errs: Partial<Record<FieldName, string>>) {
    const first = FIELD_ORDER.find((f) => errs[f]);
    if (first) refs[first].current?.focus();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    const value = email.trim();
    const local: Partial<Record<FieldName, string>> = {};
    if (!value) local.email = errorText(t, 'email_invalid');
    if (!password) local.password = errorText(t, 'required');
    if (!username.trim()) local.username = errorText(t, 'required');
    if (!terms) local.terms_check = errorText(t, 'terms_required');
    setNotice(null);
    if (Object.keys(local).length) {
      setErrors(local);
      focusFirst(local);
      return;
    }
    setErrors({});
    setLoading(true);
    try {
      const res = await api().post<AuthAnswer & { email: string }>('register', {
        email: value,
        ...(code.trim() ? { code: code.trim() } : {}),
        password,
        username: username.trim(),
        terms_check: true,
      });
      applyAuth(store, res);
      store.registerEmail = res.email;
      go('/users/signup_success');
      // The button stays busy while the next page loads.
    } catch (err) {
      setLoading(false);
      const message = bodyMessage(err);
      if (err instanceof ApiFailure && err.status === 409) {
        setNotice({ kind: 'exists', email: value });
        return;
      }
      if (err instanceof ApiFailure && err.status === 422 && message === 'user_blocked') {
        setNotice({ kind: 'blocked' });
        return;
      }
      const codes = fieldCodes(err);
      const known = Object.fromEntries(
        Object.entries(codes)
          .filter(([f]) => (FIELD_ORDER as string[]).includes(f))
          .map(([f, c]) => [f, errorText(t, c)]),
      ) as Partial<Record<FieldName, string>>;
      if (err instanceof ApiFailure && err.status === 422 && Object.keys(known).length) {
        setErrors(known);
        if (known.code) setVoucher({ state: 'idle' });
        focusFirst(known);
        return;
      }
      const fallback = err instanceof ApiFailure && err.status === 429 ? 'too_many_attempts' : err instanceof ApiFailure && err.status === 422 ? (message ?? 'validation_failed') : 'unknown_error';
      setNotice({ kind: 'error', text: errorText(t, fallback) });
    }
  }

  const voucherExtra =
    voucher.state === 'checking' ? (
      <p className="field-status small muted" role="status">
        <Spinner size={14} /> {t('auth.register.codeChecking')}
      </p>
    ) : voucher.state === 'valid' ? (
      <p className="field-status field-valid" role="status" data-testid="voucher-valid">
        <AuthIcon name="check" size={18} /> {t('auth.register.codeValid', { code: voucher.code, text: voucher.text })}
      </p>
    ) : null;

  return (
    <AuthForm name="register" action="/users/signup" onSubmit={submit}>
      <RegisterNotice notice={notice} alertRef={noticeRef} />
      <Field
        id={`${idPrefix}-email`}
        name="email"
        type="email"
        inputMode="email"
        label={t('auth.register.email')}
        autoComplete="email"
        {...VERBATIM}
        inputRef={refs.email}
        {...bind(email, setEmail)}
        error={errors.email}
        required
        extra={
          suggestion ? (
            <MailSuggestion
              suggestion={suggestion}
              onApply={() => {
                setEmail(suggestion);
                setSuggestion(null);
                refs.email.current?.focus();
              }}
            />
          ) : null
        }
      />
      <Field
        id={`${idPrefix}-code`}
        name="code"
        label={t('auth.register.code')}
        optionalLabel={t('auth.common.optional')}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        inputRef={refs.code}
        {...bind(code, setCode)}
        error={errors.code ?? (voucher.state === 'invalid' ? voucher.error : null)}
        extra={voucherExtra}
      />
      <PasswordField
        id={`${idPrefix}-password`}
        name="password"
        label={t('auth.register.password')}
        autoComplete="new-password"
        inputRef={refs.password}
        {...bind(password, setPassword)}
        error={errors.password}
        hint={t('auth.register.passwordHint')}
      />
      <Field
        id={`${idPrefix}-username`}
        name="username"
        label={t('auth.register.username')}
        autoComplete="username"
        {...VERBATIM}
        inputRef={refs.username}
        {...bind(username, setUsername)}
        error={errors.username}
        hint={t('auth.register.usernameHint')}
        required
      />
      <div className={errors.terms_check ? 'field field-check has-error' : 'field field-check'} data-field="terms_check">
        <label className="check">
          <input
            id={`${idPrefix}-terms`}
            ref={refs.terms_check}
            type="checkbox"
            name="terms_check"
            checked={terms}
            onChange={(e) => {
              setTerms(e.target.checked);
              if (e.target.checked) setErrors((x) => ({ ...x, terms_check: undefined }));
            }}
            aria-invalid={errors.terms_check ? true : undefined}
            aria-describedby={errors.terms_check ? `${idPrefix}-terms-error` : undefined}
            required
          />
          <span>
            <Rich text={t('auth.register.terms')} parts={{ terms: link('/terms', { newTab: true }), privacy: link('/privacy_policy', { newTab: true }) }} />
          </span>
        </label>
        {errors.terms_check && (
          <p className="field-error" id={`${idPrefix}-terms-error`} role="alert">
            {errors.terms_check}
          </p>
        )}
      </div>
      <SubmitButton loading={loading}>{t('auth.register.submit')}</SubmitButton>
    </AuthForm>
  );
}
