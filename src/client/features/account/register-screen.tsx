import { useRef, useState, type KeyboardEvent } from 'react';
import { useSnap, useT } from '../../state/context';
import type { AuthAnswer } from './auth-actions';
import { GoogleSignIn } from './google-sign-in';
import { LoginBox, OrDivider } from './login-box';
import { RegisterForm } from './register-form';
import type { PostedFailure } from '../../ui/form';

export type RegisterTab = 'register' | 'login';
const TABS: RegisterTab[] = ['register', 'login'];

export interface RegisterScreenProps {
  idPrefix: string;
  initialTab?: RegisterTab;
  email?: string;
  code?: string;
  /** After a login in the second tab (the page goes home, the dialog just closes). */
  onLogin?: (res: AuthAnswer) => void;
  autoFocus?: boolean;
  /** Id of the element naming the surrounding dialog or page (for the tab list). */
  labelledBy?: string;
  /** The server's answer to the sign-up (tab register) or login (tab login) posted without script. */
  failure?: PostedFailure | null;
}

/** Two tabs (sign up, log in) with the optional third-party button above them. */
export function RegisterScreen({ idPrefix, initialTab = 'register', email, code, onLogin, autoFocus, labelledBy, failure }: RegisterScreenProps) {
  const t = useT();
  const snap = useSnap();
  const [tab, setTab] = useState<RegisterTab>(initialTab);
  const tabRefs = useRef<Record<RegisterTab, HTMLButtonElement | null>>({ register: null, login: null });
  const tabId = (name: RegisterTab) => `${idPrefix}-tab-${name}`;
  const panelId = (name: RegisterTab) => `${idPrefix}-panel-${name}`;

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const i = TABS.indexOf(tab);
    let next: RegisterTab | null = null;
    if (e.key === 'ArrowRight') next = TABS[(i + 1) % TABS.length];
    else if (e.key === 'ArrowLeft') next = TABS[(i - 1 + TABS.length) % TABS.length];
    else if (e.key === 'Home') next = TABS[0];
    else if (e.key === 'End') next = TABS[TABS.length - 1];
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className="register-screen" data-tab={tab}>
      {snap.config.googleClientId && (
        <>
          <GoogleSignIn key={tab} idPrefix={idPrefix} mode={tab} onSuccess={tab === 'login' ? onLogin : () => location.assign('/')} />
          <OrDivider />
        </>
      )}
      <div className="tabs" role="tablist" aria-label={labelledBy ? undefined : t('auth.register.tabs')} aria-labelledby={labelledBy} onKeyDown={onKeyDown}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              tabRefs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={tabId(name)}
            aria-selected={tab === name}
            aria-controls={panelId(name)}
            tabIndex={tab === name ? 0 : -1}
            className={tab === name ? 'tab active' : 'tab'}
            data-tab={name}
            onClick={() => setTab(name)}
          >
            {t(name === 'register' ? 'auth.register.tabRegister' : 'auth.register.tabLogin')}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId('register')} aria-labelledby={tabId('register')} hidden={tab !== 'register'} className="tab-panel">
        <RegisterForm idPrefix={`${idPrefix}-reg`} initialEmail={email} initialCode={code} autoFocus={autoFocus} failure={initialTab === 'register' ? failure : null} />
      </div>
      <div role="tabpanel" id={panelId('login')} aria-labelledby={tabId('login')} hidden={tab !== 'login'} className="tab-panel">
        {tab === 'login' && <LoginBox idPrefix={`${idPrefix}-login`} google={false} onSuccess={onLogin} failure={initialTab === 'login' ? failure : null} />}
      </div>
    </div>
  );
}
