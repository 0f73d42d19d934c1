import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { Logo } from '../../ui/logo';

/** The 18+ gate: shown until confirmed; confirming records it on the server, leaving exits the site. */
export default function AgeSplash() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (snap.ui.splashOpen) confirmRef.current?.focus();
  }, [snap.ui.splashOpen]);

  if (!snap.ui.splashOpen) return null;

  async function confirm() {
    setBusy(true);
    try {
      await api().post('session/splash18');
      store.ui.splashOpen = false;
      store.session.splash18_confirmed = true;
    } catch {
      showSnackbar(store, t('errors.unknown_error'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="modal-backdrop splash-backdrop">
      <div className="dialog splash" role="dialog" aria-modal="true" aria-labelledby="splash-title" aria-describedby="splash-text">
        <div className="splash-head">
          <Logo size={40} />
          <span className="badge-18">18+</span>
        </div>
        <h2 id="splash-title">{t('splash.title')}</h2>
        <p id="splash-text">{t('splash.text')}</p>
        <p className="muted small">{t('splash.notice')}</p>
        <div className="dialog-actions">
          <a className="btn btn-text" href={snap.config.exitUrl} data-action="splash-leave" rel="noreferrer">
            {t('splash.leave')}
          </a>
          <button ref={confirmRef} type="button" className="btn btn-primary" data-action="splash-confirm" disabled={busy} onClick={confirm}>
            {t('splash.confirm')}
          </button>
        </div>
      </div>
    </div>
  );
}
