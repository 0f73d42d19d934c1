import { useEffect, useState } from 'react';
import { subscribeKey } from 'valtio/utils';
import { Icon } from '../../ui/icon';
import { useStore, useT } from '../../state/context';
import { InboxFilters, InboxList } from './inbox-list';
import { filtersFromSearch } from './messages-logic';
import { createMessagesView, loadList, loadThread, type ThreadTarget } from './messages-store';
import { followCount } from './unread-count';
import { ThreadView } from './thread-view';

export interface MessagesPageProps {
  view: 'inbox' | 'thread' | 'support';
  /** The conversation id of a thread. */
  id?: number;
  /** The page's query string (the inbox filters). */
  search: string;
}

function targetOf(p: MessagesPageProps): ThreadTarget | null {
  if (p.view === 'support') return { kind: 'support' };
  if (p.view === 'thread' && p.id) return { kind: 'conversation', id: p.id };
  return null;
}

/**
 * /messages, /messages/{id} and /messages/support: the inbox (filters, list, pager) or a thread
 * beside the list (the list hides on a phone). A new count from user:mc (or the poll) reloads the
 * list, and a thread when the count rose, so an answer shows up without a reload.
 */
export default function MessagesPage(props: MessagesPageProps) {
  const t = useT();
  const store = useStore();
  const [view] = useState(() => createMessagesView(filtersFromSearch(props.search), targetOf(props)));
  const hasThread = props.view !== 'inbox';

  useEffect(() => {
    void loadList(view);
    if (view.thread.target) void loadThread(view, store);
    let last = store.messagesCount;
    const unfollow = followCount(store);
    const unsubscribe = subscribeKey(store, 'messagesCount', (count) => {
      const rose = count > last;
      last = count;
      void loadList(view, true);
      if (rose && view.thread.target) void loadThread(view, store, { quiet: true, markRead: false });
    });
    return () => {
      unfollow();
      unsubscribe();
    };
  }, [view, store]);

  if (!hasThread) {
    return (
      <div className="messages-page inbox-page" data-testid="messages-page">
        <header className="messages-head">
          <h1>{t('messages.title')}</h1>
          <a className="btn btn-outline" href="/messages/support" data-testid="support-link">
            <Icon name="help" size={18} />
            <span>{t('messages.support.title')}</span>
          </a>
        </header>
        <p className="muted">{t('messages.lead')}</p>
        <InboxFilters view={view} />
        <InboxList view={view} />
      </div>
    );
  }
  return (
    <div className="messages-page thread-page" data-testid="messages-page">
      <aside className="thread-aside" aria-label={t('messages.list.label')}>
        <InboxList view={view} activeId={props.id ?? null} />
      </aside>
      <div className="thread-main">
        <a className="thread-back" href="/messages" data-testid="thread-back">
          <Icon name="chevronLeft" size={18} />
          <span>{t('messages.thread.back')}</span>
        </a>
        {props.view === 'support' && <p className="muted">{t('messages.support.lead')}</p>}
        <ThreadView view={view} />
      </div>
    </div>
  );
}
