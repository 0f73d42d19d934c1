import { useRef, useState, type FormEvent } from 'react';
import { api, ApiFailure } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useStore, useT } from '../../state/context';
import { applyAuth, type AuthAnswer } from './auth-actions';
import { AuthForm, bind, DoneCheck, FormAlert, PasswordField, SubmitButton } from '../../ui/form';
import { bodyMessage, fieldCodes } from '../../ui/api-failure';
import { errorText } from '../../ui/error-text';
import { LinkButton } from '../../ui/link-button';
import { link, Rich } from '../../ui/rich';
import { useFocusWhen } from '../../ui/use-focus-when';

type FieldName = 'password' | 'password_confirm';

/** New password twice -> POST auth/reset -> "done" with an animated check mark (logged in). */
export function NewPasswordForm({ idPrefix, token }: { idPrefix: string; token: string }) {
  const store = useStore();
  const t = useT();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<{ text: string; tokenInvalid: boolean } | null>(null);
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const doneRef = useFocusWhen<HTMLHeadingElement>(done);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    const local: Partial<Record<FieldName, string>> = {};
    if (!password) local.password = errorText(t, 'required');
    else if (confirm !== password) local.password_confirm = errorText(t, 'password_mismatch');
    setFailure(null);
    if (local.password || local.password_confirm) {
      setErrors(local);
      (local.password ? passwordRef : confirmRef).current?.focus();
      return;
    }
    setErrors({});
    setLoading(true);
    try {
      const res = await api().post<AuthAnswer>('auth/reset', { token, password, password_confirm: confirm });
      applyAuth(store, res);
      showSnackbar(store, t('auth.login.welcome', { name: res.user.name }));
      setDone(true);
    } catch (err) {
      const codes = fieldCodes(err);
      const message = bodyMessage(err);
      if (err instanceof ApiFailure && err.status === 422 && (message === 'token_invalid' || codes.token)) {
        setFailure({ text: errorText(t, 'token_invalid'), tokenInvalid: true });
      } else if (err instanceof ApiFailure && err.status === 422 && (codes.password || codes.password_confirm)) {
        const next = {
          password: codes.password ? errorText(t, codes.password) : undefined,
          password_confirm: codes.password_confirm ? errorText(t, codes.password_confirm) : undefined,
        };
        setErrors(next);
        (next.password ? passwordRef : confirmRef).current?.focus();
      } else {
        const code = err instanceof ApiFailure && err.status === 429 ? 'too_many_attempts' : err instanceof ApiFailure && err.status === 422 ? (message ?? 'unknown_error') : 'unknown_error';
        setFailure({ text: errorText(t, code), tokenInvalid: false });
      }
    } finally {
      setLoading(false);
    }
  }

  if (done) {
    return (
      <div className="auth-done" data-state="done">
        <DoneCheck />
        <h2 ref={doneRef} tabIndex={-1}>
          {t('auth.reset.doneTitle')}
        </h2>
        <p role="status">{t('auth.reset.done')}</p>
        <LinkButton kind="primary" href="/" data-action="next">{t('auth.common.next')}</LinkButton>
      </div>
    );
  }

  return (
    <AuthForm name="reset" lead={t('auth.reset.newLead')} onSubmit={submit}>
      {failure && (
        <FormAlert kind="error" testId="reset-error">
          <span>{failure.text}</span>{' '}
          {failure.tokenInvalid && <Rich text={t('auth.reset.requestNew')} parts={{ reset: link('/users/reset') }} />}
        </FormAlert>
      )}
      <PasswordField
        id={`${idPrefix}-password`}
        name="password"
        label={t('auth.reset.password')}
        autoComplete="new-password"
        inputRef={passwordRef}
        {...bind(password, setPassword)}
        error={errors.password}
        hint={t('auth.register.passwordHint')}
        autoFocus
      />
      <PasswordField
        id={`${idPrefix}-confirm`}
        name="password_confirm"
        label={t('auth.reset.confirm')}
        autoComplete="new-password"
        inputRef={confirmRef}
        {...bind(confirm, setConfirm)}
        error={errors.password_confirm}
      />
      <SubmitButton loading={loading}>{t('auth.reset.save')}</SubmitButton>
    </AuthForm>
  );
}
