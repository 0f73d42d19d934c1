import { showImageSrc } from '../../../shared/shows';
import { Icon } from '../../ui/icon';
import { useOnline } from '../../state/live';
import { useSnap, useT } from '../../state/context';
import type { Conversation } from '../../../shared/messages';

/** A short date: the time today, else the day. */
export function shortDate(unixSeconds: number | null | undefined, locale: string, nowMs: number): string {
  if (!unixSeconds) return '';
  const d = new Date(unixSeconds * 1000);
  const sameDay = new Date(nowMs).toDateString() === d.toDateString();
  return sameDay
    ? d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(locale, { day: 'numeric', month: 'short' });
}

/**
 * A conversation item: show thumbnail, show name, online state, last message, the member's
 * pseudonym, and the unread badge or the date; blocked ones dimmed with a minus sign.
 */
export function ConversationLine({ conversation: c, compact = false, active = false }: { conversation: Conversation; compact?: boolean; active?: boolean }) {
  const t = useT();
  const snap = useSnap();
  const profile = c.showprofile;
  const online = useOnline(profile?.id ?? 0, profile?.online ?? false);
  const name = profile ? profile.showname : t('messagesMenu.item.support');
  const blocked = c.block.memberstatus === 1;
  const classes = ['conversation-line', blocked && 'blocked', c.unread > 0 && 'has-unread', compact && 'compact', active && 'active'].filter(Boolean).join(' ');
  return (
    <a
      href={c.support || !profile ? '/messages/support' : `/messages/${c.id}`}
      className={classes}
      data-testid="conversation"
      data-conversation-id={c.id}
      data-blocked={blocked ? '1' : '0'}
      data-unread={c.unread}
      aria-current={active ? 'page' : undefined}
    >
      <span className="conv-thumb">
        {profile ? (
          <img src={profile.thumb || showImageSrc(profile.id, 1)} alt="" width={48} height={48} loading="lazy" decoding="async" />
        ) : (
          <span className="conv-support-icon" aria-hidden="true">
            <Icon name="help" size={28} />
          </span>
        )}
        {blocked && (
          <span className="conv-blocked-icon" title={t('messagesMenu.item.blocked')} data-testid="conversation-blocked">
            <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <circle cx="12" cy="12" r="10" fill="currentColor" />
              <rect x="6" y="11" width="12" height="2.4" fill="var(--surface)" />
            </svg>
            <span className="visually-hidden">{t('messagesMenu.item.blocked')}</span>
          </span>
        )}
      </span>
      <span className="conv-main">
        <span className="conv-top">
          <span className="conv-name" data-testid="conversation-name">
            {name}
          </span>
          {profile && (
          <span className={online ? 'conv-status online' : 'conv-status offline'} data-online={online ? '1' : '0'}>
            <span className="dot" aria-hidden="true" />
            <span className={compact ? 'visually-hidden' : undefined}>{online ? t('shows.online') : t('shows.offline')}</span>
          </span>
          )}
        </span>
        <span className="conv-body" data-testid="conversation-body">
          {c.messagebody || t('messagesMenu.item.noMessage')}
        </span>
        {!compact && profile && <span className="conv-pseudo">{t('messagesMenu.item.pseudo', { name: c.memberpseudo })}</span>}
      </span>
      <span className="conv-side">
        {c.unread > 0 ? (
          <span className="count-badge" data-testid="conversation-unread" title={t('messagesMenu.item.unread', { count: c.unread })}>
            {c.unread}
            <span className="visually-hidden">{t('messagesMenu.item.unread', { count: c.unread })}</span>
          </span>
        ) : (
          <time className="conv-date" dateTime={c.messagedate ? new Date(c.messagedate * 1000).toISOString() : undefined}>
            {shortDate(c.messagedate, snap.locale, snap.now)}
          </time>
        )}
      </span>
    </a>
  );
}
