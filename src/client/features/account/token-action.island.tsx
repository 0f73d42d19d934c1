import { useCallback, useEffect, useRef, useState } from 'react';
import { applyAuth, go, type AuthAnswer } from './auth-actions';
import { LoginBox } from './login-box';
import { DoneCheck, FormAlert, Spinner } from '../../ui/form';
import { bodyMessage } from '../../ui/api-failure';
import { errorText } from '../../ui/error-text';
import { link, Rich } from '../../ui/rich';
import { api, ApiFailure } from '../../lib/api';
import { useStore, useT } from '../../state/context';
import type { Session, User } from '../../../shared/session';
import { LinkButton } from '../../ui/link-button';

export type TokenMode = 'activate' | 'email_validate' | 'token_login';
const REDIRECT_MS = 2_000;

type State =
  | { kind: 'working' }
  | { kind: 'done' }
  | { kind: 'login' }
  | { kind: 'verified-login' }
  | { kind: 'already' }
  | { kind: 'failed'; text: string; invalid: boolean };

/** register/validate and user/email_validate: verified (logged in only where it registered) or already confirmed. */
interface ValidateAnswer {
  status?: 'verified' | 'already_verified';
  user: User | null;
  session?: Session;
}

const WORKING: Record<TokenMode, string> = {
  activate: 'auth.activate.working',
  email_validate: 'auth.activate.working',
  token_login: 'auth.tokenLogin.working',
};

/**
 * Mailed links: /users/activate (register/validate), /users/email_validate (user/email_validate,
 * needs a login) and /token_login (auth/token_login). Posts the token on load.
 */
export default function TokenAction({ mode, token }: { mode: TokenMode; token: string }) {
  const store = useStore();
  const t = useT();
  const [state, setState] = useState<State>(() => (token ? { kind: 'working' } : { kind: 'failed', text: t('auth.activate.missing'), invalid: false }));
  const started = useRef(false);

  const run = useCallback(async () => {
    if (mode === 'email_validate' && !store.user) {
      setState({ kind: 'login' });
      return;
    }
    setState({ kind: 'working' });
    try {
      if (mode === 'email_validate') {
        const res = await api().post<ValidateAnswer>('user/email_validate', { token });
        if (res.user) store.user = res.user;
        if (res.status === 'already_verified') {
          setState({ kind: 'already' });
          return;
        }
      } else if (mode === 'activate') {
        // The link confirms the address; it logs in only the browser that registered.
        const res = await api().post<ValidateAnswer>('register/validate', { token });
        if (res.status === 'already_verified') {
          setState({ kind: 'already' });
          return;
        }
        if (!res.user || !res.session) {
          setState({ kind: 'verified-login' });
          return;
        }
        applyAuth(store, { user: res.user, session: res.session });
      } else {
        const res = await api().post<AuthAnswer>('auth/token_login', { token });
        applyAuth(store, res);
      }
      if (mode === 'token_login') {
        go('/');
        return;
      }
      setState({ kind: 'done' });
      setTimeout(() => go('/'), REDIRECT_MS);
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 401) {
        setState({ kind: 'login' });
        return;
      }
      const invalid = e instanceof ApiFailure && e.status === 422;
      const code = invalid ? 'token_invalid' : e instanceof ApiFailure && e.status === 429 ? 'too_many_attempts' : (bodyMessage(e) ?? 'unknown_error');
      setState({ kind: 'failed', text: errorText(t, code), invalid });
    }
  }, [mode, token, store, t]);

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    void run();
  }, [run, token]);

  if (state.kind === 'working') {
    return (
      <p className="auth-working" role="status" data-state="working">
        <Spinner /> {t(WORKING[mode])}
      </p>
    );
  }
  if (state.kind === 'login') {
    return (
      <div data-state="login">
        <FormAlert kind="info">{t('auth.activate.loginFirst')}</FormAlert>
        <LoginBox idPrefix="token-login" onSuccess={() => void run()} />
      </div>
    );
  }
  if (state.kind === 'verified-login') {
    return (
      <div data-state="verified-login">
        <FormAlert kind="success">{t('auth.activate.verifiedLogin')}</FormAlert>
        <LoginBox idPrefix="token-login" onSuccess={() => go('/')} />
      </div>
    );
  }
  if (state.kind === 'already') {
    return (
      <div data-state="already">
        <FormAlert kind="info" testId="token-already">
          {t('auth.activate.already')}
        </FormAlert>
        <LinkButton kind="primary" href="/">{t('auth.common.home')}</LinkButton>
      </div>
    );
  }
  if (state.kind === 'failed') {
    return (
      <div data-state="failed">
        <FormAlert kind="error" testId="token-error">
          <span>{state.text}</span>{' '}
          {state.invalid && mode !== 'token_login' && <Rich text={t('auth.activate.requestNew')} parts={{ verify: link('/verify') }} />}
        </FormAlert>
        <LinkButton kind="outline" href={mode === 'token_login' ? '/login' : '/'}>{mode === 'token_login' ? t('auth.login.title') : t('auth.common.home')}</LinkButton>
      </div>
    );
  }
  return (
    <div className="auth-done" data-state="done">
      <DoneCheck />
      <p className="auth-done-text" role="status">
        {t(mode === 'token_login' ? 'auth.tokenLogin.done' : 'auth.activate.done')}
      </p>
      <p className="muted">{t('auth.activate.redirect')}</p>
      <LinkButton kind="primary" href="/" data-action="next">{t('auth.common.home')}</LinkButton>
    </div>
  );
}
