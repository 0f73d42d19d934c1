import { proxy } from 'valtio';
import type { InboxList, InboxMessages, InboxReplyAnswer, InboxConversation } from '../../../shared/inbox';
import type { Message } from '../../../shared/messages';
import { api, ApiFailure } from '../../lib/api';

// The state of one inbox island (the performer's studio inbox or the operator inbox): the list,
// the open thread, the reply being sent. Created per island (never a module-global proxy, which
// the server would share between requests). Component-local on purpose, not a slice of the root
// store: its side comes from the island, only that island reads it, and pushes reach it through
// the account slice's counts (inboxPushes).

export type InboxSide = 'studio' | 'support';

export interface InboxState {
  side: InboxSide;
  list: InboxList | null;
  load: 'idle' | 'loading' | 'error';
  openId: number | null;
  thread: InboxMessages | null;
  draft: string;
  sending: boolean;
  error: string | null;
}

export function createInbox(side: InboxSide): InboxState {
  return proxy<InboxState>({ side, list: null, load: 'idle', openId: null, thread: null, draft: '', sending: false, error: null });
}

const base = (s: InboxState) => (s.side === 'studio' ? 'studio/conversations' : 'support/conversations');
const code = (e: unknown) => (e instanceof ApiFailure ? e.message : 'unknown_error');

export async function loadList(s: InboxState): Promise<number | null> {
  s.load = 'loading';
  try {
    s.list = await api().get<InboxList>(base(s), { page: s.list?.current_page ?? 1 }, undefined, { explains403: true });
    s.load = 'idle';
    return s.list.unread;
  } catch {
    s.load = 'error';
    return null;
  }
}

export async function openThread(s: InboxState, id: number): Promise<void> {
  s.openId = id;
  s.error = null;
  try {
    const thread = await api().get<InboxMessages>(`${base(s)}/${id}/messages`, undefined, undefined, { explains403: true });
    if (s.openId !== id) return;
    s.thread = thread;
    if (thread.conversation.unread > 0 || thread.messages.data.some((m) => m.unread)) {
      await api().post(`${base(s)}/${id}/read`, {}, { explains403: true });
      patchItem(s, { ...thread.conversation, unread: 0 });
    }
  } catch (e) {
    s.error = code(e);
  }
}

function patchItem(s: InboxState, c: InboxConversation): void {
  if (!s.list) return;
  const i = s.list.data.findIndex((x) => x.id === c.id);
  if (i >= 0) s.list.data[i] = c;
}

/** After a push: the list again, and the open thread (read at once, since it is on screen). */
export async function refresh(s: InboxState): Promise<void> {
  await loadList(s);
  if (s.openId !== null) await openThread(s, s.openId);
}

export async function sendReply(s: InboxState): Promise<void> {
  const id = s.openId;
  const body = s.draft.trim();
  if (id === null || !body || s.sending) return;
  s.sending = true;
  s.error = null;
  try {
    const answer = await api().post<InboxReplyAnswer>(`${base(s)}/${id}/reply`, { body }, { explains403: true });
    s.draft = '';
    if (s.thread && s.thread.conversation.id === id) {
      s.thread.messages.data.push(answer.message as Message);
      s.thread.conversation = answer.conversation;
    }
    patchItem(s, answer.conversation);
    if (s.list) s.list.data.sort((a, b) => b.messagedate - a.messagedate || b.id - a.id);
  } catch (e) {
    s.error = code(e);
  } finally {
    s.sending = false;
  }
}

export async function setBlocked(s: InboxState, blocked: boolean): Promise<void> {
  const id = s.openId;
  if (id === null) return;
  try {
    const answer = await api().post<{ conversation: InboxConversation }>(`${base(s)}/${id}/${blocked ? 'block' : 'unblock'}`, {}, { explains403: true });
    if (s.thread && s.thread.conversation.id === id) s.thread.conversation = answer.conversation;
    patchItem(s, answer.conversation);
  } catch (e) {
    s.error = code(e);
  }
}
