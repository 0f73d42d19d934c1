import { useEffect, useRef, useState } from 'react';
import { useModal } from '../../ui/use-modal';
import { subscribe, useSnapshot } from 'valtio';
import { CHAT_MINUTE_MS, type ChatSessionAnswer } from '../../../shared/chat';
import { api } from '../../lib/api';
import { useSnap, useStore, useT } from '../../state/context';
import type { RootState } from '../../state/store';
import { BarFact, MinutesFact, PaymentFact } from './chat-parts';
import { ChatPanel } from './chat-panel';
import { connect, endedByRoom } from './chat-state';
import { FRAME_ENDED } from './external-actions';
import { showImageSrc } from '../../../shared/shows';
import { LiveVideo } from '../video/live-video';
import type { ExternalFrameProps } from './external-frame';

// The chat inside the partner frame: the same room, joined with the session's credentials, with
// the session's type, minutes, coins and an end button. The show page around it extends the
// session's lease; the frame tells it (postMessage, own origin only) when the chat ended.

function start(store: RootState, { show, answer }: ExternalFrameProps): void {
  if (!show || !answer || store.chat.phase !== 'idle') return;
  const full: ChatSessionAnswer = {
    ...answer,
    buddyaddr: 'performer',
    contentProviderId: show.contentproviderId,
    showId: show.id,
    minute_ms: CHAT_MINUTE_MS,
  };
  store.chat.show = { ...show, exclusiveOnly: false };
  store.chat.type = answer.session_type;
  store.chat.answer = full;
  store.chat.phase = 'connecting';
  connect(store, full);
}

export default function ExternalChat(props: ExternalFrameProps) {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const c = useSnapshot(store.chat);
  const r = useSnapshot(store.receiver);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  const confirmOk = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    start(store, props);
    let told = false;
    return subscribe(store.chat, () => {
      if (store.chat.phase !== 'ended' || told || window.parent === window) return;
      told = true;
      window.parent.postMessage({ type: FRAME_ENDED, sessionId: props.answer?.sessionId, reason: store.chat.ended }, location.origin);
    });
    // Started once per document.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function end() {
    setConfirming(false);
    const id = props.answer?.sessionId;
    if (id) await api().post('chat/external/end', { sessionId: id }).catch(() => undefined);
    endedByRoom(store, 'member');
  }

  const type = props.answer?.session_type ?? 'free';
  const s = c.session;
  // Voice-call session: the phone call pays for the time, not the coins.
  const byCall = props.answer?.voicecall === true && type !== 'free';
  const ended = c.phase === 'ended';
  const state = ended ? 'ended' : c.phase !== 'live' ? 'connecting' : s?.state === 'pending' ? 'pending' : 'running';
  // The end question is modal inside the frame: Escape keeps the chat running.
  useModal(confirming && !ended, { rootRef: confirmRef, initialFocusRef: confirmOk, onEscape: () => setConfirming(false) });
  return (
    <div className="external-chat-frame" data-testid="external-chat" data-state={state} data-connected={c.connected ? '1' : '0'}>
      <header className="chat-bar">
        <div className="chat-bar-title">
          <span className="chat-bar-name">{props.show?.name}</span>
          <span className={`chat-type-badge type-${type}`} data-testid="chat-type">
            {t(`chat.type.${type}`)}
          </span>
        </div>
        <dl className="chat-bar-facts">
          <MinutesFact minutes={s?.minutes ?? 0} />
          {!byCall && (
            <BarFact label={t('chat.external.coinsSpent')} testId="chat-spent" data={{ 'data-coins': s?.coins ?? 0 }}>
              {t('chat.external.spent', { count: s?.coins ?? 0 })}
            </BarFact>
          )}
          <PaymentFact byCall={byCall} coins={snap.user?.coins ?? null} />
        </dl>
        {!ended && !confirming && (
          <button type="button" className="btn btn-primary chat-end" data-testid="frame-end" onClick={() => setConfirming(true)}>
            {t('chat.bar.end')}
          </button>
        )}
      </header>
      {confirming && !ended && (
        <div ref={confirmRef} className="external-confirm" role="alertdialog" aria-modal="true" aria-label={t('chat.exit.title')}>
          <p>{t('chat.exit.text')}</p>
          <button ref={confirmOk} type="button" className="btn btn-primary" data-testid="frame-end-confirm" onClick={() => void end()}>
            {t('chat.exit.confirm')}
          </button>
          <button type="button" className="btn btn-outline" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
        </div>
      )}
      <p className="external-status small" aria-live="polite" data-testid="frame-status">
        {t(ended ? `chat.ended.${c.ended ?? 'member'}` : state === 'running' ? `chat.stage.${type}` : `chat.stage.${state}`, { name: props.show?.name ?? '' })}
      </p>
      {c.phase === 'live' && props.show && (r.state !== null || r.phase === 'unsupported') && (
        <div className="external-video">
          <LiveVideo name={props.show.name} poster={showImageSrc(props.show.id, 1, true)} />
        </div>
      )}
      <ChatPanel />
    </div>
  );
}
