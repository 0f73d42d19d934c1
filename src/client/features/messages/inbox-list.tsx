import { useEffect, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { CONVERSATION_ORDERS, SHOWNAME_FILTER_MIN, type ConversationOrder } from '../../../shared/messages';
import { Icon } from '../../ui/icon';
import { useT } from '../../state/context';
import { ConversationLine } from './conversation-line';
import { DEFAULT_FILTERS, searchFromFilters } from './messages-logic';
import { loadList, type MessagesView } from './messages-store';

/** Writes the filters into the address (bookmarkable) and loads the list. */
function apply(view: MessagesView) {
  if (location.pathname === '/messages') history.replaceState(history.state, '', `/messages${searchFromFilters(view.filters)}`);
  void loadList(view);
}

/** The inbox filters: order, unread only, show name (from 3 characters), the member's pseudonym. */
export function InboxFilters({ view }: { view: MessagesView }) {
  const t = useT();
  const { filters } = useSnapshot(view);
  const id = useId();
  const [showname, setShowname] = useState(filters.showname);
  const [nickname, setNickname] = useState(filters.nickname);

  // Typing filters after a short pause; a show name counts only from 3 characters.
  useEffect(() => {
    const timer = setTimeout(() => {
      const effective = (s: string) => (s.trim().length >= SHOWNAME_FILTER_MIN ? s.trim() : '');
      const changedShow = effective(showname) !== effective(view.filters.showname);
      const changedNick = nickname.trim() !== view.filters.nickname.trim();
      view.filters.showname = showname;
      view.filters.nickname = nickname;
      if (changedShow || changedNick) {
        view.filters.page = 1;
        apply(view);
      }
    }, 400);
    return () => clearTimeout(timer);
  }, [showname, nickname, view]);

  return (
    <form className="inbox-filters" role="search" aria-label={t('messages.filters.label')} onSubmit={(e) => e.preventDefault()}>
      <label className="inbox-field">
        <span>{t('messages.filters.order')}</span>
        <select
          value={filters.order_by}
          data-testid="filter-order"
          onChange={(e) => {
            view.filters.order_by = e.target.value as ConversationOrder;
            view.filters.page = 1;
            apply(view);
          }}
        >
          {CONVERSATION_ORDERS.map((o) => (
            <option key={o} value={o}>
              {t(`messages.filters.${o}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="inbox-check">
        <input
          type="checkbox"
          checked={filters.unread}
          data-testid="filter-unread"
          onChange={(e) => {
            view.filters.unread = e.target.checked;
            view.filters.page = 1;
            apply(view);
          }}
        />
        <span>{t('messages.filters.unread')}</span>
      </label>
      <label className="inbox-field">
        <span>{t('messages.filters.showname')}</span>
        <input type="search" value={showname} data-testid="filter-showname" aria-describedby={`${id}-hint`} onChange={(e) => setShowname(e.target.value)} />
        <small id={`${id}-hint`} className="muted">
          {t('messages.filters.shownameHint')}
        </small>
      </label>
      <label className="inbox-field">
        <span>{t('messages.filters.nickname')}</span>
        <input type="search" value={nickname} data-testid="filter-nickname" onChange={(e) => setNickname(e.target.value)} />
      </label>
      <button
        type="button"
        className="btn btn-text"
        onClick={() => {
          setShowname('');
          setNickname('');
          Object.assign(view.filters, DEFAULT_FILTERS);
          apply(view);
        }}
      >
        {t('messages.filters.reset')}
      </button>
    </form>
  );
}

/** The conversation list with its loading, empty and error states and a pager. */
export function InboxList({ view, activeId = null }: { view: MessagesView; activeId?: number | null }) {
  const t = useT();
  const { list, filters } = useSnapshot(view);
  const filtered = filters.unread || filters.showname.trim().length >= SHOWNAME_FILTER_MIN || filters.nickname.trim().length > 0;
  const go = (page: number) => {
    view.filters.page = page;
    apply(view);
  };
  return (
    <div className="inbox-list" data-testid="inbox" data-status={list.status}>
      {list.status === 'loading' && (
        <p className="messages-state" role="status" data-testid="inbox-loading">
          <span className="spinner" aria-hidden="true" /> {t('messages.loading')}
        </p>
      )}
      {list.status === 'error' && (
        <div className="messages-state" role="alert" data-testid="inbox-error">
          <p>{t('messages.error')}</p>
          <button type="button" className="btn btn-outline" onClick={() => void loadList(view)}>
            {t('messages.retry')}
          </button>
        </div>
      )}
      {list.status === 'ready' && list.data.length === 0 && (
        <p className="messages-state" data-testid="inbox-empty">
          {filtered ? t('messages.list.emptyFiltered') : t('messages.list.empty')}
        </p>
      )}
      {list.status === 'ready' && list.data.length > 0 && (
        <>
          <p className="muted small inbox-count">{t('messages.list.count', { count: list.total })}</p>
          <ul className="conversation-list" aria-label={t('messages.list.label')}>
            {list.data.map((c) => (
              <li key={c.id}>
                <ConversationLine conversation={c} active={c.id === activeId} />
              </li>
            ))}
          </ul>
        </>
      )}
      {list.last_page > 1 && (
        <nav className="inbox-pager" aria-label={t('pagination.label')}>
          <button type="button" className="btn btn-text" disabled={list.current_page <= 1} onClick={() => go(list.current_page - 1)} aria-label={t('pagination.previous')}>
            <Icon name="chevronLeft" size={20} />
          </button>
          <span data-testid="inbox-page">{t('pagination.page', { page: list.current_page })}</span>
          <button type="button" className="btn btn-text" disabled={list.current_page >= list.last_page} onClick={() => go(list.current_page + 1)} aria-label={t('pagination.next')}>
            <Icon name="chevronRight" size={20} />
          </button>
        </nav>
      )}
    </div>
  );
}
