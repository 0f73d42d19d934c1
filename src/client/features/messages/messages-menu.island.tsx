import { lazy, Suspense, useEffect } from 'react';
import { MESSAGE_POLL_MS } from '../../../shared/constants';
import { isPerformerUser } from '../../../shared/drawer';
import type { User } from '../../../shared/session';
import { Icon } from '../../ui/icon';
import { useDropdown } from '../../ui/use-dropdown';
import { DropdownToggle } from '../../ui/dropdown-toggle';
import { useSnap, useStore, useT } from '../../state/context';
import { followCount, refreshCount } from './unread-count';
import { MenuLoading } from './messages-menu-loading';

// The panel's lists (and the conversation lines) load with the panel's first opening: a visitor
// or a member who never opens it does not download them with the page.
const MenuLists = lazy(() => import('./messages-menu-lists'));

/**
 * The top bar's messages menu (members only): the envelope with the unread count (pushed live
 * by user:mc, then read in order by unread-count.ts; GET conversations/count every 60 s as the fallback), and
 * a panel with the unread conversations (up to 50) and the 3 latest others.
 */
export default function MessagesMenu() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const dropdown = useDropdown();
  const { open, wrapRef } = dropdown;
  const member = !!snap.user;
  const count = snap.messagesCount;

  // The count on load, after every user:mc push, and every 60 s (the fallback for a socket that is away).
  useEffect(() => {
    if (!member) return;
    const poll = () => document.visibilityState !== 'hidden' && void refreshCount(store);
    poll();
    const timer = setInterval(poll, MESSAGE_POLL_MS);
    const onVisible = () => document.visibilityState === 'visible' && poll();
    document.addEventListener('visibilitychange', onVisible);
    const unfollow = followCount(store);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      unfollow();
    };
  }, [member, store]);

  // A performer's messages are in the studio's inbox, not a member's conversations.
  if (!member || snap.session.voicecall || isPerformerUser(snap.user as User)) return null;
  return (
    <div className="messages-menu-wrap" ref={wrapRef}>
      <DropdownToggle
        dropdown={dropdown}
        controls="messages-menu"
        className="btn btn-text icon-only messages-toggle"
        aria-label={t('messagesMenu.open', { count })}
        title={t('messagesMenu.title')}
        data-testid="messages-toggle"
      >
        <Icon name="mail" size={22} />
        {count > 0 && (
          <span className="count-badge" data-testid="messages-badge" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </DropdownToggle>
      {open && (
        <div id="messages-menu" className="dropdown-panel messages-menu" data-testid="messages-menu" role="region" aria-label={t('messagesMenu.title')}>
          <Suspense fallback={<MenuLoading />}>
            <MenuLists count={count} />
          </Suspense>
          <div className="messages-menu-foot">
            <a href="/messages" className="btn btn-text" data-testid="menu-all-messages">
              {t('messagesMenu.all')}
            </a>
            <a href="/messages/support" className="btn btn-text">
              {t('messagesMenu.support')}
            </a>
          </div>
        </div>
      )}
    </div>
  );
}
