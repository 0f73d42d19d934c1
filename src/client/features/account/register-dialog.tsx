import { useRef } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { RegisterScreen } from './register-screen';

/** The registration screen as a modal (opened by #sign-in); Escape closes it (the hash goes). */
export default function RegisterDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const rootRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useModal(true, { rootRef, trapRef: dialogRef, onEscape: onClose });

  // On <body>: the top bar is a stacking context that would keep the modal under other layers.
  return createPortal(
    <div ref={rootRef} className="modal-backdrop register-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        className="dialog register-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="register-dialog-title"
        data-testid="register-dialog"
      >
        <div className="dialog-head">
          <h2 id="register-dialog-title">{t('auth.register.title')}</h2>
          <button type="button" className="icon-btn" aria-label={t('auth.common.close')} onClick={onClose}>
            <Icon name="close" size={20} />
          </button>
        </div>
        <p className="muted small">{t('auth.register.lead')}</p>
        <RegisterScreen idPrefix="dlg" labelledBy="register-dialog-title" autoFocus onLogin={onClose} />
      </div>
    </div>,
    document.body,
  );
}
