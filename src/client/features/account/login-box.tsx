import { useState } from 'react';
import { useSnap, useT } from '../../state/context';
import type { AuthAnswer } from './auth-actions';
import { GoogleSignIn } from './google-sign-in';
import { LoginForm } from './login-form';
import { ResetRequestForm } from './reset-request-form';
import type { PostedFailure } from '../../ui/form';

export interface LoginBoxProps {
  idPrefix: string;
  onSuccess?: (res: AuthAnswer) => void;
  /** Google button above the form (the registration screen shows its own). */
  google?: boolean;
  /** "New here? Sign up free" under the form. */
  signupLink?: boolean;
  autoFocus?: boolean;
  initialMode?: 'login' | 'reset';
  /** Where a login posted without script goes on to. */
  redirect?: string | null;
  /** The server's answer to the login form posted without script. */
  failure?: PostedFailure | null;
}

/** The login form, switchable to the password-reset request ("forgot password"). */
export function LoginBox({ idPrefix, onSuccess, google = true, signupLink = false, autoFocus, initialMode = 'login', redirect, failure }: LoginBoxProps) {
  const t = useT();
  const withGoogle = google && !!useSnap().config.googleClientId;
  const [mode, setMode] = useState(initialMode);
  const [login, setLogin] = useState('');
  const [focusNext, setFocusNext] = useState(!!autoFocus);

  if (mode === 'reset') {
    return (
      <div className="login-box" data-mode="reset">
        <ResetRequestForm
          idPrefix={idPrefix}
          initialLogin={login}
          autoFocus={focusNext}
          onBack={() => {
            setFocusNext(true);
            setMode('login');
          }}
        />
      </div>
    );
  }
  return (
    <div className="login-box" data-mode="login">
      {withGoogle && <GoogleSignIn idPrefix={idPrefix} mode="login" onSuccess={onSuccess} />}
      {withGoogle && <OrDivider />}
      <LoginForm
        idPrefix={idPrefix}
        onSuccess={onSuccess}
        autoFocus={focusNext}
        initialLogin={login}
        redirect={redirect}
        failure={failure}
        onForgot={(value) => {
          setLogin(value);
          setFocusNext(true);
          setMode('reset');
        }}
      />
      {signupLink && (
        <p className="auth-switch">
          <span>{t('auth.login.noAccount')}</span> <a href="/users/signup">{t('auth.login.signup')}</a>
        </p>
      )}
    </div>
  );
}

/** The "or" line between the third-party button and the form. */
export function OrDivider() {
  const t = useT();
  return (
    <div className="or-divider" role="separator">
      <span>{t('auth.common.or')}</span>
    </div>
  );
}
