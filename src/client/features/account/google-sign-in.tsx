import { useEffect, useRef, useState, type ReactNode } from 'react';
import { api, ApiFailure } from '../../lib/api';
import { readCookie, writeCookie } from '../../lib/cookies';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { applyAuth, go, type AuthAnswer } from './auth-actions';
import { loginErrorCode } from './login-form';
import { FormAlert, Spinner } from '../../ui/form';
import { errorText } from '../../ui/error-text';
import { link, Rich } from '../../ui/rich';

export const GOOGLE_CONSENT_COOKIE = 'google_consent';
const GOOGLE_CONSENT_DAYS = 3650;
const GSI_SRC = 'https://accounts.google.com/gsi/client';
const BUTTON_WIDTH = 300;

interface GoogleId {
  initialize(config: { client_id: string; callback: (res: { credential?: string }) => void; ux_mode?: 'popup'; auto_select?: boolean; itp_support?: boolean }): void;
  renderButton(el: HTMLElement, options: Record<string, unknown>): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleId } };
  }
}

let loading: Promise<GoogleId> | null = null;

/** Loads Google's script once, only after consent (our nonce'd module adds it: strict-dynamic). */
function loadGsi(): Promise<GoogleId> {
  const ready = window.google?.accounts?.id;
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<GoogleId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SRC;
    script.async = true;
    script.onload = () => {
      const id = window.google?.accounts?.id;
      if (id) resolve(id);
      else reject(new Error('Google Identity Services missing after load'));
    };
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('Google Identity Services failed to load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

// GSI takes one callback per page: it goes to the most recently mounted button.
const handlers: ((credential: string) => void)[] = [];
let initializedWith: string | null = null;

function ensureInitialized(id: GoogleId, clientId: string): void {
  if (initializedWith === clientId) return;
  id.initialize({
    client_id: clientId,
    callback: (res) => {
      if (res.credential) handlers[handlers.length - 1]?.(res.credential);
    },
    ux_mode: 'popup',
    auto_select: false,
    itp_support: true,
  });
  initializedWith = clientId;
}

export interface GoogleSignInProps {
  idPrefix: string;
  /** register: sign-up mode (terms and privacy must be accepted first; creates the account). */
  mode: 'login' | 'register';
  onSuccess?: (res: AuthAnswer) => void;
}

/**
 * Third-party sign-in: nothing of Google's loads before the visitor agrees; then the Google
 * button (300 px) posts its ID token to auth/login.
 */
export function GoogleSignIn({ idPrefix, mode, onSuccess }: GoogleSignInProps) {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const clientId = snap.config.googleClientId;
  const consent = snap.googleConsent;
  const [status, setStatus] = useState<'idle' | 'loading' | 'ready' | 'failed'>('idle');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [terms, setTerms] = useState(false);
  const [privacy, setPrivacy] = useState(false);
  const buttonRef = useRef<HTMLDivElement>(null);
  const register = mode === 'register';

  // The remembered consent (cookie) is read after hydration, so server and client agree first.
  useEffect(() => {
    if (!store.googleConsent && readCookie(GOOGLE_CONSENT_COOKIE) === '1') store.googleConsent = true;
  }, [store]);

  const latest = useRef<(credential: string) => void>(() => undefined);
  latest.current = async (credential: string) => {
    setBusy(true);
    setError(null);
    try {
      const res = await api().post<AuthAnswer>('auth/login', register ? { credential, register: true } : { credential });
      applyAuth(store, res);
      showSnackbar(store, t(register ? 'auth.register.welcome' : 'auth.login.welcome', { name: res.user.name }));
      onSuccess?.(res);
    } catch (e) {
      const email = e instanceof ApiFailure ? (e.body as { email?: unknown } | null)?.email : undefined;
      if (e instanceof ApiFailure && (e.status === 422 || e.status === 401) && typeof email === 'string') {
        store.visibility.login = false;
        go(`/users/signup?email=${encodeURIComponent(email)}`);
        return;
      }
      setError(errorText(t, loginErrorCode(e)));
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!clientId || !consent) return;
    const handler = (credential: string) => void latest.current(credential);
    handlers.push(handler);
    let cancelled = false;
    setStatus('loading');
    loadGsi()
      .then((id) => {
        if (cancelled || !buttonRef.current) return;
        ensureInitialized(id, clientId);
        buttonRef.current.replaceChildren();
        id.renderButton(buttonRef.current, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          shape: 'pill',
          text: register ? 'signup_with' : 'signin_with',
          logo_alignment: 'left',
          width: BUTTON_WIDTH,
          locale: store.locale,
        });
        setStatus('ready');
      })
      .catch(() => {
        if (!cancelled) setStatus('failed');
      });
    return () => {
      cancelled = true;
      const i = handlers.lastIndexOf(handler);
      if (i >= 0) handlers.splice(i, 1);
    };
  }, [clientId, consent, register, store]);

  if (!clientId) return null;

  if (!consent) {
    return (
      <div className="google-consent" data-testid="google-consent">
        <p className="google-consent-title">{t('auth.google.consentTitle')}</p>
        <p className="small muted">
          <Rich text={t('auth.google.consentText')} parts={{ privacy: link('/privacy_policy', { newTab: true }) }} />
        </p>
        <button
          type="button"
          className="btn btn-outline btn-block"
          data-action="google-consent"
          onClick={() => {
            writeCookie(GOOGLE_CONSENT_COOKIE, '1', GOOGLE_CONSENT_DAYS);
            store.googleConsent = true;
          }}
        >
          <GoogleMark />
          <span>{t('auth.google.agree')}</span>
        </button>
      </div>
    );
  }

  const accepted = !register || (terms && privacy);
  return (
    <div className="google-signin" data-testid="google-signin" data-mode={mode}>
      {register && (
        <div className="google-checks">
          <Check id={`${idPrefix}-g-terms`} checked={terms} onChange={setTerms}>
            <Rich text={t('auth.google.acceptTerms')} parts={{ terms: link('/terms', { newTab: true }) }} />
          </Check>
          <Check id={`${idPrefix}-g-privacy`} checked={privacy} onChange={setPrivacy}>
            <Rich text={t('auth.google.acceptPrivacy')} parts={{ privacy: link('/privacy_policy', { newTab: true }) }} />
          </Check>
        </div>
      )}
      <div className="google-button-wrap" aria-busy={busy || status === 'loading'}>
        <div ref={buttonRef} className="google-button" />
        {!accepted && status === 'ready' && (
          <button type="button" className="google-blocker" aria-label={t('auth.google.acceptFirst')} onClick={() => setError(t('auth.google.acceptFirst'))} />
        )}
        {(status === 'loading' || busy) && (
          <p className="google-status small muted">
            <Spinner size={14} /> {busy ? t('auth.common.working') : t('auth.google.loading')}
          </p>
        )}
      </div>
      {status === 'failed' && <FormAlert kind="error">{t('auth.google.failed')}</FormAlert>}
      {error && <FormAlert kind="error">{error}</FormAlert>}
    </div>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.2-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2A11.9 11.9 0 0 1 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3a12 12 0 0 1-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.2-.1-2.4-.4-3.5z" />
    </svg>
  );
}

function Check({ id, checked, onChange, children }: { id: string; checked: boolean; onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <label className="check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{children}</span>
    </label>
  );
}
