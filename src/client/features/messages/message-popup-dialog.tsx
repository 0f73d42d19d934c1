import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { useStore, useT } from '../../state/context';
import { createMessagesView, loadThread, type MessagesView } from './messages-store';
import { ThreadView } from './thread-view';

/** The message popup's dialog: the conversation with the show's performer, in a modal. */
export default function PopupDialog({ showid, name, onClose }: { showid: number; name: string; onClose: () => void }) {
  const t = useT();
  const store = useStore();
  const [view] = useState<MessagesView>(() => createMessagesView(undefined, { kind: 'show', showid }));
  useEffect(() => {
    void loadThread(view, store);
  }, [view, store]);
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
