import { useRef } from 'react';
import { answerConfirm } from '../state/actions';
import { useSnap, useStore, useT } from '../state/context';
import { useModal } from './use-modal';

/** The shared yes/no dialog opened by confirmDialog(); Escape or the backdrop cancels. */
export function ConfirmDialog() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const req = snap.ui.confirm;
  const okRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  useModal(!!req, { rootRef, initialFocusRef: okRef, onEscape: () => answerConfirm(store, false) });

  if (!req) return null;
  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && answerConfirm(store, false)}>
      <div className="dialog confirm" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-text">
        <h2 id="confirm-title">{req.title}</h2>
        <p id="confirm-text">{req.text}</p>
        <div className="dialog-actions">
          <button type="button" className="btn btn-text" onClick={() => answerConfirm(store, false)}>
            {t('common.cancel')}
          </button>
          <button ref={okRef} type="button" className="btn btn-primary" onClick={() => answerConfirm(store, true)}>
            {req.confirmLabel ?? t('common.ok')}
          </button>
        </div>
      </div>
    </div>
  );
}
