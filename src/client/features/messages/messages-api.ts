import { CONVERSATION_ROUTES as R, SUPPORT_ID, type ConversationAnswers as A } from '../../../shared/messages';
import { api } from '../../lib/api';
import type { Query } from './messages-logic';

// The member's calls of the spec's "Conversations" list (section 7).

export const messagesApi = {
  count: () => api().get<A['count']>(R.count),
  list: (q: Query, signal?: AbortSignal) => api().get<A['list']>(R.list, q, signal),
  thread: (id: number | typeof SUPPORT_ID, page = 1, signal?: AbortSignal) => api().get<A['messages']>(R.messages(id), { page }, signal),
  /** The member's conversation with a show under their own pseudonym (id 0: none yet). */
  conversationFor: (showid: number) => api().get<A['conversation']>(R.conversation, { showid, pseudoid: 0 }),
  /** Message ids read, or unread again. */
  read: (ids: number[]) => api().post<A['read']>(R.read, { ids }),
  unread: (ids: number[]) => api().post<A['unread']>(R.unread, { ids, unread: 1 }),
  readAll: () => api().post<A['readAll']>(R.readAll, {}),
  block: (showid: number) => api().post<A['block']>(R.block(showid), {}),
  unblock: (showid: number) => api().post<A['unblock']>(R.unblock(showid), {}),
  /** A message to a show; `coins` is the tip (0: none). */
  sendShow: (b: { body: string; showid: number; pseudoid: number; coins: number }) =>
    api().post<A['show']>(R.show, { body: b.body, showid: b.showid, pseudoid: b.pseudoid, coins: b.coins, tip: b.coins > 0 }),
  sendSupport: (body: string) => api().post<A['support']>(R.support, { body }),
};
