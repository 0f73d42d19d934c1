import { useRef, useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { CsrfField } from '../../ui/csrf-field';
import { Logo } from '../../ui/logo';
import { useModal } from '../../ui/use-modal';

/**
 * The 18+ gate: shown until confirmed; confirming records it on the server, leaving exits the
 * site. A modal: the page behind is inert (the server renders it so, for visits without script)
 * and does not scroll; Escape does nothing, the question must be answered. Without script the
 * confirm button posts the form to /splash18, which records it and comes back.
 */
export default function AgeSplash() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const trapRef = useRef<HTMLDivElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useModal(snap.ui.splashOpen, { rootRef, trapRef, initialFocusRef: confirmRef });

  if (!snap.ui.splashOpen) return null;

  async function confirm(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
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
    <div ref={rootRef} className="modal-backdrop splash-backdrop">
      <div ref={trapRef} className="dialog splash" role="dialog" aria-modal="true" aria-labelledby="splash-title" aria-describedby="splash-text">
        <div className="splash-head">
          <Logo size={40} />
          <span className="badge-18">18+</span>
        </div>
        <h2 id="splash-title">{t('splash.title')}</h2>
        <p id="splash-text">{t('splash.text')}</p>
        <p className="muted small">{t('splash.notice')}</p>
        <form className="dialog-actions" method="post" action="/splash18" onSubmit={confirm}>
          <CsrfField />
          <input type="hidden" name="redirect" value={snap.path} />
          <a className="btn btn-text" href={snap.config.exitUrl} data-action="splash-leave" rel="noreferrer">
            {t('splash.leave')}
          </a>
          {/* autoFocus: the server-rendered splash has the focus before any script runs. */}
          <button ref={confirmRef} type="submit" className="btn btn-primary" data-action="splash-confirm" disabled={busy} autoFocus>
            {t('splash.confirm')}
          </button>
        </form>
      </div>
    </div>
  );
}
