import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../../ui/icon';
import { useDropdown } from '../../ui/use-dropdown';
import { DropdownToggle } from '../../ui/dropdown-toggle';
import { isPerformerUser } from '../../../shared/drawer';
import type { User } from '../../../shared/session';
import { useSnap, useStore, useT } from '../../state/context';

// Loaded on first use, so the entry (the top bar is on every page) stays small.
const LoginPanel = lazy(() => import('./login-panel'));
const RegisterDialog = lazy(() => import('./register-dialog'));
const loadMemberMenu = () => import('./member-menu-list');
const MemberMenuList = lazy(loadMemberMenu);

const SIGN_IN_HASH = '#sign-in';
const ARROW_DOWN = 'M7 10l5 5 5-5z';

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
  // A performer's account is for the studio: no member balance to show or top up.
  const performer = isPerformerUser(snap.user as User);
  return (
    <div className="account-area">
      {performer ? null : snap.session.voicecall ? (
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
  const t = useT();
  const dropdown = useDropdown();
  const { open, wrapRef } = dropdown;
  const user = snap.user;

  if (!user) return null;
  return (
    <div className="member-menu-wrap" ref={wrapRef}>
      <DropdownToggle
        dropdown={dropdown}
        controls="member-menu"
        className="btn btn-text member-toggle"
        data-testid="member-toggle"
        onPointerEnter={() => void loadMemberMenu()}
        onFocus={() => void loadMemberMenu()}
      >
        <Icon name="person" size={20} />
        <span className="hide-xs nickname" data-testid="member-name">
          {user.name}
        </span>
        <span className="visually-hidden">{t('auth.menu.label')}</span>
        <svg className="icon" width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d={ARROW_DOWN} fill="currentColor" />
        </svg>
      </DropdownToggle>
      {open && (
        <Suspense fallback={null}>
          <MemberMenuList user={user as User} />
        </Suspense>
      )}
    </div>
  );
}

