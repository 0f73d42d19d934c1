import { useEffect, useId, useRef } from 'react';
import { useModal } from '../../ui/use-modal';
import { useSnapshot } from 'valtio';
import { useStore, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { closeExternal, FRAME_ENDED, markEnded } from './external-actions';

/** The partner frame on a show page (an iframe of our own origin, sized for phone and desktop). */
export default function ExternalRoot() {
  const t = useT();
  const store = useStore();
  const external = store.externalChat;
  const x = useSnapshot(external);
  const titleId = useId();

  useEffect(() => {
    // The frame says when its chat ended (its end button, the performer, the coins): stop extending.
    const onMessage = (e: MessageEvent) => {
      const data = e.data as { type?: unknown; sessionId?: unknown } | null;
      if (e.origin !== location.origin || data?.type !== FRAME_ENDED || data.sessionId !== external.sessionId) return;
      markEnded();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const rootRef = useRef<HTMLDivElement>(null);
  // A modal over the show page; Escape does not end a chat (the spec).
  useModal(!!x.frame, { rootRef });
  if (!x.frame) return null;
  return (
    <div ref={rootRef} className="external-overlay" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="external-overlay" data-state={x.ended ? 'ended' : 'running'} data-extends={x.extends}>
      <header className="chat-bar">
        <div className="chat-bar-title">
          <span id={titleId} className="chat-bar-name">
            {t('chat.external.title', { name: x.showName })}
          </span>
        </div>
        {/* "Close" beside the frame's own "End chat": closing a running chat ends it (after asking). */}
        <button type="button" className="btn btn-outline chat-end" data-testid="external-close" aria-label={t('chat.bar.close')} onClick={() => void closeExternal(store, t)}>
          <Icon name="close" size={16} />
          <span>{t('chat.bar.close')}</span>
        </button>
      </header>
      {x.ended && (
        <p className="external-ended" role="status" data-testid="external-ended">
          {t('chat.external.ended', { name: x.showName })}
        </p>
      )}
      <iframe className="external-frame" src={x.frame} title={t('chat.external.frameTitle', { name: x.showName })} data-testid="external-frame" />
    </div>
  );
}
