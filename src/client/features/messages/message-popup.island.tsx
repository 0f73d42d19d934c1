import { useCallback, useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { useSnap, useStore, useT } from '../../state/context';
import { createMessagesView, loadThread, type MessagesView } from './messages-store';
import { ThreadView } from './thread-view';

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
  const [view, setView] = useState<MessagesView | null>(null);
  const buttonRef = useRef<HTMLAnchorElement>(null);
  const member = !!snap.user;

  useEffect(() => {
    const check = () => setOpen(location.hash === OPEN_CONVERSATION_HASH && !!store.user);
    check();
    window.addEventListener('hashchange', check);
    return () => window.removeEventListener('hashchange', check);
  }, [store, member]);

  useEffect(() => {
    if (!open) return;
    const v = createMessagesView(undefined, { kind: 'show', showid });
    setView(v);
    void loadThread(v, store);
  }, [open, showid, store]);

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
      {open && view && <PopupDialog view={view} name={name} onClose={close} />}
    </>
  );
}

function PopupDialog({ view, name, onClose }: { view: MessagesView; name: string; onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const conv = useSnapshot(view).thread.conversation;

  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  useModal(true, { rootRef, trapRef: ref, onEscape: onClose });

  return (
    <div ref={rootRef} className="modal-backdrop message-popup-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className="dialog message-popup" role="dialog" aria-modal="true" aria-labelledby="message-popup-title" tabIndex={-1} data-testid="message-popup">
        <div className="dialog-head">
          <h2 id="message-popup-title">{t('messages.popup.title', { name })}</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.close')} data-testid="message-popup-close">
            <Icon name="close" size={22} />
          </button>
        </div>
        {conv && conv.id > 0 && (
          <a className="message-popup-open" href={`/messages/${conv.id}`}>
            {t('messages.popup.open')}
          </a>
        )}
        <ThreadView view={view} headingId="message-popup-thread" />
      </div>
    </div>
  );
}
