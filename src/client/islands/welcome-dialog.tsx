import { useEffect, useRef, useState } from 'react';
import type { Session } from '../../shared/session';
import { Icon } from '../components/icon';
import { welcomeWanted } from '../components/profile/welcome-rule';
import { api } from '../lib/api';
import { useSnap, useStore, useT } from '../state/context';

/**
 * Greets a member once per session (session.welcome_dialog names the parts to show: the free
 * video and the voucher; see welcomeWanted for where). Closing records it with POST
 * session/welcome_shown.
 */
export default function WelcomeDialog() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const okRef = useRef<HTMLButtonElement>(null);
  const [closed, setClosed] = useState(false);
  const parts = snap.session.welcome_dialog;
  const open = !closed && welcomeWanted(snap.user?.is_verified === true, !!parts, snap.path) && !snap.ui.splashOpen;

  useEffect(() => {
    if (!open) return;
    okRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
    // close() only uses stable values (the setter, the store), so the first one serves.
  }, [open]);

  function close() {
    setClosed(true);
    api()
      .post<{ session: Session }>('session/welcome_shown')
      .then((res) => {
        store.session = res.session;
      })
      .catch(() => undefined);
  }

  if (!open || !parts) return null;
  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div className="dialog welcome-dialog" role="dialog" aria-modal="true" aria-labelledby="welcome-title" data-testid="welcome-dialog">
        <div className="welcome-icon" aria-hidden="true">
          <Icon name="star" size={40} />
        </div>
        <h2 id="welcome-title">{t('welcome.title', { name: snap.user?.name ?? '' })}</h2>
        <p>{t('welcome.text')}</p>
        {parts.video && (
          <div className="welcome-part" data-part="video">
            <Icon name="video" size={28} />
            <div>
              <h3>{t('welcome.video.title')}</h3>
              <p className="muted">{t('welcome.video.text')}</p>
            </div>
          </div>
        )}
        {parts.voucher && (
          <div className="welcome-part" data-part="voucher">
            <Icon name="gift" size={28} />
            <div>
              <h3>{t('welcome.voucher.title')}</h3>
              <p className="muted">{t('welcome.voucher.text')}</p>
            </div>
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn btn-text" onClick={close} data-action="welcome-close">
            {t('common.close')}
          </button>
          <button ref={okRef} type="button" className="btn btn-primary" data-action="welcome-start" onClick={close}>
            {t('welcome.start')}
          </button>
        </div>
      </div>
    </div>
  );
}
