import { useEffect, useId, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { useSnap, useStore, useT } from '../../state/context';
import { ChatPanel } from './chat-panel';
import { closeAlert, closeChat, endOnPageHide, exitChat } from './chat-actions';
import { ChatAlertDialog, LeftChatDialog, RatingDialog } from './chat-dialogs';
import { BarFact, clock, MinutesFact, PaymentFact, useNow } from './chat-parts';
import { showImageSrc } from '../../../shared/shows';
import { LiveVideo } from '../video/live-video';

/** Everything of the viewer's chat a show page renders: the overlay, the alert, the rating. */
export default function ChatRoot() {
  const c = useSnapshot(useStore().chat);
  const open = c.phase === 'connecting' || c.phase === 'live' || c.phase === 'ended';

  useEffect(() => {
    const onHide = () => endOnPageHide();
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, []);

  useEffect(() => {
    // The chat bar replaces the app bar and the footer hides while a chat runs.
    document.documentElement.classList.toggle('chat-open', open);
    return () => document.documentElement.classList.remove('chat-open');
  }, [open]);

  return (
    <>
      {open && <ChatOverlay />}
      {c.alert && <ChatAlertDialog code={c.alert.code} onClose={closeAlert} />}
      {c.rating && <RatingDialog />}
      {c.left && <LeftChatDialog />}
    </>
  );
}

function ChatOverlay() {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const c = useSnapshot(useStore().chat);
  const now = useNow();
  const titleId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  // Keyboard users land in the chat: the message box when it takes text, else the end button.
  useEffect(() => {
    const root = rootRef.current;
    const target = root?.querySelector<HTMLElement>('.chat-input:not(:disabled)') ?? root?.querySelector<HTMLElement>('.chat-end');
    if (root && !root.contains(document.activeElement)) target?.focus();
  }, [c.phase]);
  const show = c.show;
  // A modal: the show page behind is inert and still; Escape does not end a chat (the spec).
  useModal(!!show, { rootRef });
  if (!show) return null;
  const s = c.session;
  const paid = c.type !== 'free';
  // Voice-call chat: the phone call pays for the time, so the bar shows that instead of coins.
  const byCall = c.answer?.voicecall === true;
  const pending = paid && (!s || s.state === 'pending') && c.phase !== 'ended';
  const wentPrivate = c.type === 'free' && (c.room?.mode === 'private' || c.room?.mode === 'exclusive');
  const state = c.phase === 'ended' ? 'ended' : c.phase === 'connecting' ? 'connecting' : pending ? 'pending' : wentPrivate ? 'went-private' : 'running';

  return (
    <div
      ref={rootRef}
      className="chat-overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="chat-overlay"
      data-state={state}
      data-type={c.type}
      data-voicecall={byCall ? '1' : '0'}
      data-connected={c.connected ? '1' : '0'}
    >
      <header className="chat-bar" data-testid="chat-bar">
        <div className="chat-bar-title">
          <span id={titleId} className="chat-bar-name">
            {show.name}
          </span>
          <span className={`chat-type-badge type-${c.phase === 'ended' ? 'ended' : c.type}`} data-testid="chat-type">
            {c.phase === 'ended' ? t('chat.bar.ended') : t(`chat.type.${c.type}`)}
          </span>
        </div>
        <dl className="chat-bar-facts">
          {paid && s?.started_at ? (
            <BarFact label={t('chat.bar.time')} testId="chat-time">
              <Icon name="live" size={14} />
              {clock(now - s.started_at)}
            </BarFact>
          ) : null}
          {paid && <MinutesFact minutes={s?.minutes ?? 0} />}
          <PaymentFact byCall={byCall && paid} coins={snap.user?.coins ?? null} />
        </dl>
        <button
          type="button"
          className="btn btn-primary chat-end"
          data-testid="chat-end"
          aria-label={c.phase === 'ended' ? t('chat.bar.close') : t('chat.bar.end')}
          onClick={() => void exitChat(store, t)}
        >
          <Icon name="close" size={16} />
          <span>{c.phase === 'ended' ? t('chat.bar.close') : t('chat.bar.end')}</span>
        </button>
      </header>
      <div className="chat-body">
        <ChatStage state={state} />
        <ChatPanel />
      </div>
    </div>
  );
}

function ChatStage({ state }: { state: string }) {
  const t = useT();
  const store = useStore();
  const c = useSnapshot(useStore().chat);
  const r = useSnapshot(store.receiver);
  const name = c.show?.name ?? '';
  const video = c.phase === 'live' && (r.state !== null || r.phase === 'unsupported');
  const playing = video && r.state === 'live' && r.phase === 'playing';
  let text: string;
  switch (state) {
    case 'connecting':
      text = t('chat.stage.connecting', { name });
      break;
    case 'pending':
      text = t('chat.stage.pending', { name });
      break;
    case 'went-private':
      text = t('chat.stage.wentPrivate', { name });
      break;
    case 'ended':
      text = t(`chat.ended.${c.ended ?? 'member'}`, { name });
      break;
    default:
      text = t(`chat.stage.${c.type}`, { name });
  }
  return (
    <section className={`chat-stage stage-${state}${video ? ' has-video' : ''}${playing ? ' video-playing' : ''}`} aria-live="polite">
      {video && c.show && <LiveVideo name={name} poster={showImageSrc(c.show.id, 1, true)} />}
      <div className="chat-stage-inner">
        <Icon name={state === 'ended' ? 'warning' : 'video'} size={36} />
        <p className="chat-stage-text" data-testid="chat-stage">
          {text}
        </p>
        {!c.connected && state !== 'ended' && state !== 'connecting' && (
          <p className="muted small" data-testid="chat-reconnecting">
            {t('chat.stage.reconnecting')}
          </p>
        )}
        {c.warn !== null && state !== 'ended' && (
          <p className="chat-warn" role="alert" data-testid="chat-warn">
            {t('chat.warnCoins', { seconds: c.warn })}{' '}
            <a href="/billing" target="_blank" rel="noopener">
              {t('chat.buyCoins')}
            </a>
          </p>
        )}
        {state === 'ended' && (
          <div className="chat-stage-actions">
            {c.ended === 'no_coins' && (
              <a className="btn btn-primary" href="/billing" data-testid="chat-billing">
                {t('chat.buyCoins')}
              </a>
            )}
            <button type="button" className="btn btn-outline" data-testid="chat-close" onClick={() => closeChat(store)}>
              {t('chat.bar.close')}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
