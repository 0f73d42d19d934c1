import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../../ui/icon';
import { useDropdown } from '../../ui/use-dropdown';
import { isPerformerUser } from '../../../shared/drawer';
import type { User } from '../../../shared/session';
import { useSnap, useStore, useT } from '../../state/context';

// Loaded on first use, so the top bar's chunk stays small on every page.
const LoginPanel = lazy(() => import('./login-panel'));
const RegisterDialog = lazy(() => import('./register-dialog'));

const SIGN_IN_HASH = '#sign-in';
// Two small icons inline, so this chunk (on every page) does not pull in the account forms.
const ARROW_DOWN = 'M7 10l5 5 5-5z';
const LOG_OUT = 'M17 7l-1.41 1.41L18.17 11H8v2h10.17l-2.58 2.58L17 17l5-5zM4 5h8V3H4c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h8v-2H4V5z';

function Svg({ d, size }: { d: string; size: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} fill="currentColor" />
    </svg>
  );
}

/** Top bar right side: sign-up and login for visitors; coins and the member menu for members. */
export default function AccountArea() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const loginRef = useRef<HTMLAnchorElement>(null);
  const [signIn, setSignIn] = useState(false);

  // #sign-in opens the registration screen as a modal on any page (visitors only).
  useEffect(() => {
    const check = () => setSignIn(location.hash === SIGN_IN_HASH && !store.user);
    check();
    window.addEventListener('hashchange', check);
    return () => window.removeEventListener('hashchange', check);
  }, [store]);

  const closeSignIn = useCallback(() => {
    setSignIn(false);
    if (location.hash === SIGN_IN_HASH) history.replaceState(history.state, '', location.pathname + location.search);
  }, []);

  const dialog = signIn && !snap.user && (
    <Suspense fallback={null}>
      <RegisterDialog onClose={closeSignIn} />
    </Suspense>
  );

  if (!snap.user) {
    const open = snap.visibility.login;
    return (
      <div className="account-area">
        <a
          ref={loginRef}
          className={open ? 'btn btn-text login-toggle active' : 'btn btn-text login-toggle'}
          href="/login"
          aria-expanded={open}
          aria-controls="login-panel"
          aria-label={t('nav.login')}
          data-action="login-toggle"
          onClick={(e) => {
            e.preventDefault();
            store.visibility.login = !store.visibility.login;
          }}
        >
          <Icon name="login" size={20} />
          <span className="hide-xs">{t('nav.login')}</span>
        </a>
        <a className="btn btn-primary" href="/users/signup">
          <span className="hide-xs">{t('nav.signup')}</span>
          <span className="show-xs">{t('nav.signupShort')}</span>
        </a>
        {open && (
          <Suspense
            fallback={
              <div id="login-panel" className="login-panel login-panel-loading">
                <span className="spinner" aria-hidden="true" />
              </div>
            }
          >
            <LoginPanel toggleRef={loginRef} />
          </Suspense>
        )}
        {dialog}
      </div>
    );
  }
  return (
    <div className="account-area">
      {snap.session.voicecall ? (
        // The balance stays visible in voice-call mode; buying more waits until the call ends.
        <span className="chip coins">
          <Icon name="coins" size={18} />
          <span data-testid="coins">{snap.user.coins}</span>
        </span>
      ) : (
        <a className="chip coins" href="/billing" title={t('nav.buyCoins')}>
          <Icon name="coins" size={18} />
          <span data-testid="coins">{snap.user.coins}</span>
        </a>
      )}
      <MemberMenu />
    </div>
  );
}

/** The member's name with a small menu: profile, e-mail confirmation (when due), log out. */
function MemberMenu() {
  const snap = useSnap();
  const store = useStore();
  const t = useT();
  const { open, setOpen, wrapRef, buttonRef } = useDropdown();
  const user = snap.user;

  if (!user) return null;
  return (
    <div className="member-menu-wrap" ref={wrapRef}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-text member-toggle"
        aria-expanded={open}
        aria-controls="member-menu"
        data-testid="member-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="person" size={20} />
        <span className="hide-xs nickname" data-testid="member-name">
          {user.name}
        </span>
        <span className="visually-hidden">{t('auth.menu.label')}</span>
        <Svg d={ARROW_DOWN} size={18} />
      </button>
      {open && (
        <div id="member-menu" className="member-menu" data-testid="member-menu">
          <p className="member-menu-name">{user.name}</p>
          <ul>
            <li>
              <a href="/users/profile">
                <Icon name="person" size={18} />
                <span>{t('auth.menu.profile')}</span>
              </a>
            </li>
            <li>
              <a href="/messages" data-testid="menu-messages">
                <Icon name="mail" size={18} />
                <span>{t('auth.menu.messages')}</span>
              </a>
            </li>
            <li>
              <a href="/users/archive" data-testid="menu-archive">
                <Icon name="video" size={18} />
                <span>{t('auth.menu.archive')}</span>
              </a>
            </li>
            {isPerformerUser(user as User) && (
              <li>
                <a href="/studio" data-testid="menu-studio">
                  <Icon name="live" size={18} />
                  <span>{t('auth.menu.studio')}</span>
                </a>
              </li>
            )}
            {!user.is_verified && (
              <li>
                <a href="/verify">
                  <Icon name="mail" size={18} />
                  <span>{t('auth.menu.verify')}</span>
                </a>
              </li>
            )}
            <li>
              {/* The member's own click logs out at once (POST); opened any other way, /logout only asks. */}
              <a
                href="/logout"
                data-action="logout"
                onClick={(e) => {
                  e.preventDefault();
                  // Loaded on the click: the home page's first load stays without it.
                  void import('./auth-actions').then((m) => m.logOutAndLeave(store));
                }}
              >
                <Svg d={LOG_OUT} size={18} />
                <span>{t('auth.menu.logout')}</span>
              </a>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}

