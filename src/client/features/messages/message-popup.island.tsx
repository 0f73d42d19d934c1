import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../../ui/icon';
import { useSnap, useStore, useT } from '../../state/context';

// The conversation (thread view, message store) loads when the popup first opens: a show page
// does not carry it for the many visitors who never open it.
const PopupDialog = lazy(() => import('./message-popup-dialog'));

export const OPEN_CONVERSATION_HASH = '#open-conversation';

export interface MessagePopupProps {
  showid: number;
  name: string;
}

/**
 * On a show page: "Send a message" and the message popup (at least 400 px wide, 600 px high,
 * full screen on a phone), opened by the #open-conversation hash. Visitors go to the login and
 * come back with the popup open.
 */
export default function MessagePopup({ showid, name }: MessagePopupProps) {
  const t = useT();
  const snap = useSnap();
  const store = useStore();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLAnchorElement>(null);
  const member = !!snap.user;

  useEffect(() => {
    const check = () => setOpen(location.hash === OPEN_CONVERSATION_HASH && !!store.user);
    check();
    window.addEventListener('hashchange', check);
    return () => window.removeEventListener('hashchange', check);
  }, [store, member]);

  const close = useCallback(() => {
    setOpen(false);
    if (location.hash === OPEN_CONVERSATION_HASH) history.replaceState(history.state, '', location.pathname + location.search);
    buttonRef.current?.focus();
  }, []);

  const href = member ? OPEN_CONVERSATION_HASH : `/login?redirect=${encodeURIComponent(`${snap.path}${OPEN_CONVERSATION_HASH}`)}`;
  return (
    <>
      <a
        ref={buttonRef}
        className="btn btn-outline message-show-button"
        href={href}
        data-testid="open-conversation"
        onClick={(e) => {
          if (!store.user) return;
          e.preventDefault();
          if (location.hash === OPEN_CONVERSATION_HASH) setOpen(true);
          else location.hash = OPEN_CONVERSATION_HASH;
        }}
      >
        <Icon name="mail" size={18} />
        <span>{t('messages.popup.button')}</span>
      </a>
      {open && (
        <Suspense fallback={null}>
          <PopupDialog showid={showid} name={name} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
