import { useEffect, useRef, type RefObject } from 'react';
import { useStore, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { LoginBox } from './login-box';

/**
 * The top bar's login dropdown (a full-width sheet on phones). Escape, the close button or a
 * click outside closes it; focus returns to the toggle.
 */
export default function LoginPanel({ toggleRef }: { toggleRef: RefObject<HTMLElement | null> }) {
  const store = useStore();
  const t = useT();
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const close = (refocus: boolean) => {
      store.visibility.login = false;
      if (refocus) toggleRef.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node | null;
      if (!target || panelRef.current?.contains(target) || toggleRef.current?.contains(target)) return;
      // Clicks into other overlays (snackbar, dialogs) leave the panel open.
      if ((target as Element).closest?.('.snackbar, .modal-backdrop, .consent')) return;
      close(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [store, toggleRef]);
  // A modal while open: the page behind is inert, Tab stays inside, Escape closes it.
  useModal(true, {
    rootRef: panelRef,
    keepRef: toggleRef,
    onEscape: () => {
      store.visibility.login = false;
      toggleRef.current?.focus();
    },
  });

  return (
    <div id="login-panel" ref={panelRef} className="login-panel" role="dialog" aria-modal="true" aria-labelledby="login-panel-title" data-testid="login-panel">
      <div className="login-panel-head">
        <h2 id="login-panel-title">{t('auth.login.title')}</h2>
        <button
          type="button"
          className="icon-btn"
          aria-label={t('auth.common.close')}
          onClick={() => {
            store.visibility.login = false;
            toggleRef.current?.focus();
          }}
        >
          <Icon name="close" size={20} />
        </button>
      </div>
      <LoginBox idPrefix="panel" signupLink autoFocus />
    </div>
  );
}
