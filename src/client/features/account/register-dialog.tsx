import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { RegisterScreen } from './register-screen';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** The registration screen as a modal (opened by #sign-in); Escape closes it. */
export default function RegisterDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
        return;
      }
      if (e.key !== 'Tab' || !dialogRef.current) return;
      // Keep focus inside the dialog.
      const items = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    document.body.classList.add('modal-open');
    return () => {
      window.removeEventListener('keydown', onKey);
      document.body.classList.remove('modal-open');
      previous?.focus?.();
    };
  }, [onClose]);

  // On <body>: the top bar is a stacking context that would keep the modal under other layers.
  return createPortal(
    <div className="modal-backdrop register-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
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
