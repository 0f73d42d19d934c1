import { useState } from 'react';
import { logOutAndLeave } from './auth-actions';
import { Spinner } from '../../ui/form';
import { useStore, useT } from '../../state/context';
import { LinkButton } from '../../ui/link-button';

/**
 * /logout: a page view changes nothing (a link from another site must not log anyone out); a
 * member confirms with the button, which POSTs auth/logout and goes home.
 */
export default function LogoutPage({ loggedIn }: { loggedIn: boolean }) {
  const store = useStore();
  const t = useT();
  const [state, setState] = useState<'ask' | 'working' | 'done'>(loggedIn ? 'ask' : 'done');

  if (state === 'done') {
    return (
      <div data-state="done">
        <p className="auth-working" role="status">{t('auth.logout.done')}</p>
        <LinkButton kind="primary" href="/">{t('auth.common.home')}</LinkButton>
      </div>
    );
  }
  if (state === 'working') {
    return (
      <p className="auth-working" role="status" data-state="working">
        <Spinner /> {t('auth.logout.working')}
      </p>
    );
  }
  return (
    <div data-state="ask">
      <p className="lead">{t('auth.logout.question')}</p>
      <div className="auth-actions">
        <button
          type="button"
          className="btn btn-primary"
          data-action="logout-confirm"
          onClick={() => {
            setState('working');
            void logOutAndLeave(store);
          }}
        >
          {t('auth.logout.confirm')}
        </button>{' '}
        <LinkButton kind="outline" href="/">{t('auth.common.home')}</LinkButton>
      </div>
    </div>
  );
}
