import { useOnline } from '../../state/live';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';

export interface ShowLiveProps {
  part: 'status' | 'actions';
  show: {
    id: number;
    name: string;
    online: boolean;
    freemode: boolean;
    exclusivemode: boolean;
    exclusiveOnly: boolean;
  };
}

/**
 * The live parts of a show page: the online badge, and the chat buttons. Free chat needs free
 * mode and the show online; exclusive needs exclusive mode. Visitors are sent to sign-up (a guest
 * asking for a private chat goes there); members get a notice until the chat arrives.
 */
export default function ShowLive({ part, show }: ShowLiveProps) {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const online = useOnline(show.id, show.online);

  if (part === 'status') {
    return (
      <span className={online ? 'status-badge online' : 'status-badge offline'} data-testid="show-status" data-online={online ? '1' : '0'}>
        <span className="dot" aria-hidden="true" />
        {online ? t('shows.online') : t('shows.offline')}
      </span>
    );
  }

  const member = !!snap.user;
  const kinds: ('free' | 'private' | 'exclusive')[] = [];
  if (show.freemode && online) kinds.push('free');
  // With exclusive only, a private chat would become exclusive anyway: only that button is offered.
  if (!show.exclusiveOnly) kinds.push('private');
  if (show.exclusivemode) kinds.push('exclusive');
  const primary = show.exclusiveOnly ? 'exclusive' : 'private';

  return (
    <div className="chat-actions" data-testid="chat-actions" data-online={online ? '1' : '0'}>
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
          if (!member) {
            return (
              <a key={kind} className={cls} href="/users/signup" data-chat={kind}>
                {label}
              </a>
            );
          }
          return (
            <button key={kind} type="button" className={cls} data-chat={kind} onClick={() => showSnackbar(store, t('shows.chat.comingSoon', { name: show.name }))}>
              {label}
            </button>
          );
        })}
      </div>
      <p className="chat-note muted small" aria-live="polite">
        {online ? (member ? t('shows.chat.hintMember') : t('shows.chat.hintVisitor')) : t('shows.chat.offline', { name: show.name })}
      </p>
    </div>
  );
}
