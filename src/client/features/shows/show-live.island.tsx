import { useEffect, useState, type ComponentType } from 'react';
import type { SessionType } from '../../../shared/chat';
import { useOnline } from '../../state/live';
import { useSnap, useStore, useT } from '../../state/context';
import { leftChat } from '../chat/chat-left';

export interface ShowLiveProps {
  part: 'status' | 'actions';
  show: {
    id: number;
    universalId: string;
    contentproviderId: number;
    name: string;
    online: boolean;
    freemode: boolean;
    exclusivemode: boolean;
    exclusiveOnly: boolean;
  };
}

type ChatModules = [typeof import('../chat/chat-root'), typeof import('../chat/chat-actions'), typeof import('../chat/external-root')];
let chatModules: Promise<ChatModules> | null = null;
const loadChat = () => (chatModules ??= Promise.all([import('../chat/chat-root'), import('../chat/chat-actions'), import('../chat/external-root')]));

/**
 * The live parts of a show page: the online badge, and the chat buttons. Free chat needs free
 * mode and the show online (guests may join it); private, voyeur and exclusive need a member
 * (a guest asking for one goes to sign-up). The chat itself loads with the first click.
 */
export default function ShowLive({ part, show }: ShowLiveProps) {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const online = useOnline(show.id, show.online);
  // The chat (overlay, alerts, rating) and, for a partner show, its frame.
  const [Chat, setChat] = useState<{ C: ComponentType; X: ComponentType } | null>(null);
  const [busy, setBusy] = useState<SessionType | null>(null);

  // Back after leaving a paid chat mid-way: the chat loads to tell the member how it ended.
  useEffect(() => {
    if (part !== 'actions' || !store.user || !leftChat()) return;
    void loadChat().then(([root, actions, external]) => {
      setChat((cur) => cur ?? { C: root.default, X: external.default });
      return actions.checkLeftChat();
    });
  }, [part, store]);

  if (part === 'status') {
    return (
      <span className={online ? 'status-badge online' : 'status-badge offline'} data-testid="show-status" data-online={online ? '1' : '0'}>
        <span className="dot" aria-hidden="true" />
        {online ? t('shows.online') : t('shows.offline')}
      </span>
    );
  }

  const member = !!snap.user;
  // Voice-call mode: the phone call pays for the time; exclusive is not offered then.
  const byCall = member && snap.session.voicecall;
  const kinds: SessionType[] = [];
  if (show.freemode && online) kinds.push('free');
  // With exclusive only, a private chat would become exclusive anyway: only that button is offered.
  if (!show.exclusiveOnly) kinds.push('private');
  if (show.exclusivemode && !byCall) kinds.push('exclusive');
  if (online) kinds.push('voyeur');
  const primary = show.exclusiveOnly ? 'exclusive' : 'private';

  async function start(kind: SessionType) {
    setBusy(kind);
    try {
      const [root, actions, external] = await loadChat();
      setChat((cur) => cur ?? { C: root.default, X: external.default });
      await actions.startChat(store, { id: show.id, universalId: show.universalId, contentproviderId: show.contentproviderId, name: show.name, exclusiveOnly: show.exclusiveOnly }, kind);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="chat-actions" data-testid="chat-actions" data-online={online ? '1' : '0'} data-voicecall={byCall ? '1' : '0'}>
      <div className="chat-buttons">
        {kinds.map((kind) => {
          const cls = `btn ${kind === primary ? 'btn-primary' : 'btn-outline'} chat-btn chat-${kind}`;
          const label = t(`shows.chat.${kind}`);
          if (!online) {
            return (
              <button key={kind} type="button" className={cls} disabled data-chat={kind}>
                {label}
              </button>
            );
          }
          if (!member && kind !== 'free') {
            return (
              <a key={kind} className={cls} href="/users/signup" data-chat={kind}>
                {label}
              </a>
            );
          }
          return (
            <button key={kind} type="button" className={cls} data-chat={kind} disabled={busy !== null} aria-busy={busy === kind} onClick={() => void start(kind)}>
              {busy === kind ? t('shows.chat.starting') : label}
            </button>
          );
        })}
      </div>
      <p className="chat-note muted small" aria-live="polite">
        {online ? (byCall ? t('shows.chat.hintVoicecall') : member ? t('shows.chat.hintMember') : t('shows.chat.hintVisitor')) : t('shows.chat.offline', { name: show.name })}
      </p>
      {Chat && <Chat.C />}
      {Chat && <Chat.X />}
    </div>
  );
}
