import { useEffect, useState, type ComponentProps } from 'react';
import { useT } from '../../state/context';
import { MenuLoading } from './messages-menu-loading';
import { ConversationLine } from './conversation-line';
import { messagesApi } from './messages-api';
import { latestMenuQuery, unreadMenuQuery } from './messages-logic';
import type { Conversation } from '../../../shared/messages';

interface MenuListsState {
  status: 'loading' | 'ready' | 'error';
  unread: Conversation[];
  latest: Conversation[];
}

/**
 * The messages menu's lists: the unread conversations (up to 50) and the 3 latest others, loaded
 * when the panel opens (it mounts with each opening) and again when the count changes meanwhile.
 */
export default function MenuLists({ count }: { count: number }) {
  const t = useT();
  const [lists, setLists] = useState<MenuListsState>({ status: 'loading', unread: [], latest: [] });

  useEffect(() => {
    let alive = true;
    (async () => {
      try {
        const unread = await messagesApi.list(unreadMenuQuery());
        const unreadIds = unread.data.map((c) => c.id);
        const latest = await messagesApi.list(latestMenuQuery(unreadIds));
        if (alive) setLists({ status: 'ready', unread: unread.data, latest: latest.data.filter((c) => !unreadIds.includes(c.id)) });
      } catch {
        if (alive) setLists((l) => ({ ...l, status: 'error' }));
      }
    })();
    return () => {
      alive = false;
    };
  }, [count]);

  return (
    <>
          {lists.status === 'loading' && <MenuLoading />}
          {lists.status === 'error' && (
            <p className="messages-menu-note error" role="alert">
              {t('messagesMenu.error')}
            </p>
          )}
          {lists.status === 'ready' && (
            <>
              <h2 className="messages-menu-head">{t('messagesMenu.unread')}</h2>
              {lists.unread.length === 0 ? (
                <p className="messages-menu-note">{t('messagesMenu.noUnread')}</p>
              ) : (
                <MenuList testId="menu-unread" conversations={lists.unread} />
              )}
              {lists.latest.length > 0 && (
                <>
                  <h2 className="messages-menu-head">{t('messagesMenu.latest')}</h2>
                  <MenuList testId="menu-latest" conversations={lists.latest} />
                </>
              )}
              {lists.unread.length === 0 && lists.latest.length === 0 && <p className="messages-menu-note">{t('messagesMenu.none')}</p>}
            </>
          )}
    </>
  );
}

function MenuList({ testId, conversations }: { testId: string; conversations: ComponentProps<typeof ConversationLine>['conversation'][] }) {
  return (
    <ul className="messages-menu-list" data-testid={testId}>
      {conversations.map((c) => (
        <li key={c.id}>
          <ConversationLine conversation={c} compact />
        </li>
      ))}
    </ul>
  );
}
