import { useEffect } from 'react';
import { closeSnackbar } from '../state/actions';
import { useSnap, useStore, useT } from '../state/context';

/** One message at a time at the bottom; closes itself after its timeout (default 10 s). */
export function Snackbar() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const bar = snap.ui.snackbar;

  useEffect(() => {
    if (!bar || bar.timeout <= 0) return;
    const timer = setTimeout(() => {
      if (store.ui.snackbar?.id === bar.id) closeSnackbar(store);
    }, bar.timeout);
    return () => clearTimeout(timer);
  }, [bar, store]);

  if (!bar) return null;
  return (
    <div className="snackbar" role="status" aria-live="polite" data-testid="snackbar">
      <span>{bar.text}</span>
      {bar.action && (
        <a className="btn btn-text" href={bar.action.href}>
          {bar.action.label}
        </a>
      )}
      <button type="button" className="btn btn-text" onClick={() => closeSnackbar(store)}>
        {t('common.close')}
      </button>
    </div>
  );
}
