import { useEffect } from 'react';
import { startVersionWatch } from '../lib/version-watch';
import { useSnap, useStore, useT } from '../state/context';

/** "A new version is available": appears 10 s after the builds differ; dismissing postpones 5 min. */
export function UpdateNotice() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();

  useEffect(() => startVersionWatch(store), [store]);

  if (!snap.ui.updateNotice) return null;
  return (
    <div className="update-notice" role="status">
      <span>{t('update.text')}</span>
      <button type="button" className="btn btn-text" data-action="update-later" onClick={() => (store.ui.updateNotice = false)}>
        {t('update.later')}
      </button>
      <button type="button" className="btn btn-primary" data-action="update-reload" onClick={() => location.reload()}>
        {t('update.reload')}
      </button>
    </div>
  );
}
