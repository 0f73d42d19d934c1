import { proxy } from 'valtio';
import { ApiFailure } from '../../lib/api';
import type { RootState } from '../../state/store';
import { messagesApi } from './messages-api';
import { withCount } from './unread-count';
import {
  afterSend,
  bumpConversation,
  confirmPlaceholder,
  DEFAULT_FILTERS,
  firstUnreadId,
  lastTheirs,
  listQuery,
  mergeMessages,
  placeholder,
  readAllUntilSettled,
  unreadTheirs,
  withoutPlaceholder,
  withPlaceholder,
  type InboxFilters,
} from './messages-logic';
import { SUPPORT_ID, type Conversation, type Counts, type Message } from '../../../shared/messages';

// The state of one messages view (inbox, thread, support, the show page's popup): a Valtio proxy
// per island, so the list and the thread of a page share it. Actions are plain functions.
// Component-local on purpose, not a slice of the root store: it is made from the island's props
// (filters, target), a page may hold more than one view (the popup beside another), and nothing
// outside the island reads it; the unread counts that others read are in the account slice.

export type LoadStatus = 'loading' | 'ready' | 'error' | 'notfound';
/** Which thread: a conversation by id, the support thread, or the one with a show (popup). */
export type ThreadTarget = { kind: 'conversation'; id: number } | { kind: 'support' } | { kind: 'show'; showid: number };

export interface MessagesView {
  filters: InboxFilters;
  list: { status: LoadStatus; data: Conversation[]; current_page: number; last_page: number; total: number };
  thread: {
    target: ThreadTarget | null;
    status: LoadStatus;
    conversation: Conversation | null;
    messages: Message[];
    page: number;
    last_page: number;
    /** The first unread message when the thread was opened: the "New" marker goes before it. */
    newMarker: number | null;
    sending: boolean;
    sendError: string | null;
    busy: boolean;
    /** Read or unread changes made here so far: a page fetched before one of them has older flags. */
    marks: number;
  };
}

export function createMessagesView(filters: InboxFilters = DEFAULT_FILTERS, target: ThreadTarget | null = null): MessagesView {
  return proxy<MessagesView>({
    filters: { ...filters },
    list: { status: 'loading', data: [], current_page: 1, last_page: 1, total: 0 },
    thread: { target, status: 'loading', conversation: null, messages: [], page: 1, last_page: 1, newMarker: null, sending: false, sendError: null, busy: false, marks: 0 },
  });
}

let listSeq = 0;

/** Loads the list for the current filters; `quiet` keeps the old rows on screen while it loads. */
export async function loadList(v: MessagesView, quiet = false): Promise<void> {
  const seq = ++listSeq;
  if (!quiet) v.list.status = 'loading';
  try {
    const res = await messagesApi.list(listQuery(v.filters));
    if (seq !== listSeq) return;
    v.list.data = Array.isArray(res?.data) ? res.data : [];
    v.list.current_page = res.current_page ?? 1;
    v.list.last_page = res.last_page ?? 1;
    v.list.total = res.total ?? v.list.data.length;
    v.list.status = 'ready';
  } catch {
    if (seq === listSeq && !quiet) v.list.status = 'error';
  }
}

function threadId(v: MessagesView): number | typeof SUPPORT_ID | null {
  const t = v.thread.target;
  if (!t) return null;
  if (t.kind === 'support') return SUPPORT_ID;
  if (t.kind === 'conversation') return t.id;
  const id = v.thread.conversation?.id ?? 0;
  return id > 0 ? id : null;
}

/** The per-conversation unread counts of an answer (the badge's `all` goes through withCount). */
function applyCounts(v: MessagesView, counts: Counts | null | undefined): void {
  if (!counts || typeof counts.all !== 'number') return;
  for (const c of v.list.data) c.unread = counts[String(c.id)] ?? 0;
  const conv = v.thread.conversation;
  if (conv && conv.id > 0) conv.unread = counts[String(conv.id)] ?? 0;
}

/**
 * Opens the thread: its newest page, the "New" marker before the first unread message of the
 * other side, then marks those messages read (what opening it means).
 */
export async function loadThread(v: MessagesView, store: RootState, { quiet = false, markRead = true } = {}): Promise<void> {
  const t = v.thread.target;
  if (!t) return;
  if (!quiet) v.thread.status = 'loading';
  try {
    if (t.kind === 'show' && !(v.thread.conversation && v.thread.conversation.id > 0)) v.thread.conversation = await messagesApi.conversationFor(t.showid);
    const id = threadId(v);
    if (id === null) {
      v.thread.status = 'ready';
      return;
    }
    const marks = v.thread.marks;
    const res = await messagesApi.thread(id, 1);
    if (res.conversation) v.thread.conversation = res.conversation;
    let fresh = Array.isArray(res.messages?.data) ? res.messages.data : [];
    if (v.thread.marks !== marks) {
      // Marked read or unread here while this page was on its way: the flags here are newer.
      const local = new Map(v.thread.messages.map((m) => [m.messageid, m.unread]));
      fresh = fresh.map((m) => (local.has(m.messageid) ? { ...m, unread: local.get(m.messageid) ?? m.unread } : m));
    }
    const keep = quiet ? v.thread.messages : v.thread.messages.filter((m) => m.messageid < 0);
    v.thread.messages = mergeMessages(keep, fresh);
    v.thread.last_page = res.messages?.last_page ?? 1;
    if (!quiet) {
      v.thread.page = 1;
      v.thread.newMarker = firstUnreadId(v.thread.messages);
    } else {
      v.thread.newMarker ??= firstUnreadId(v.thread.messages);
    }
    v.thread.status = 'ready';
    const unread = unreadTheirs(fresh);
    if (markRead && unread.length) await markRead_(v, store, unread);
  } catch (e) {
    if (quiet) return;
    v.thread.status = e instanceof ApiFailure && (e.status === 404 || e.status === 403 || e.status === 422) ? 'notfound' : 'error';
  }
}

/** The next older page of the thread, merged in by time. */
export async function loadOlder(v: MessagesView): Promise<void> {
  const id = threadId(v);
  if (id === null || v.thread.page >= v.thread.last_page) return;
  v.thread.busy = true;
  try {
    const res = await messagesApi.thread(id, v.thread.page + 1);
    v.thread.messages = mergeMessages(res.messages?.data ?? [], v.thread.messages);
    v.thread.page += 1;
    v.thread.last_page = res.messages?.last_page ?? v.thread.last_page;
  } catch {
    // Only logged (spec section 8): the button stays for another try.
  } finally {
    v.thread.busy = false;
  }
}

async function markRead_(v: MessagesView, store: RootState, ids: number[]): Promise<void> {
  v.thread.marks++;
  const counts = await withCount(store, () => messagesApi.read(ids));
  for (const m of v.thread.messages) if (ids.includes(m.messageid)) m.unread = 0;
  applyCounts(v, counts);
}

/** Marks the thread's unread messages of the other side read: the list, the thread and the badge follow. */
export function markThreadRead(v: MessagesView, store: RootState): Promise<void> {
  const ids = unreadTheirs(v.thread.messages);
  return ids.length ? markRead_(v, store, ids) : Promise.resolve();
}

/** Marks the newest message of the other side unread again. */
export async function markThreadUnread(v: MessagesView, store: RootState): Promise<void> {
  const id = lastTheirs(v.thread.messages);
  if (id === null) return;
  v.thread.marks++;
  const counts = await withCount(store, () => messagesApi.unread([id]));
  for (const m of v.thread.messages) if (m.messageid === id) m.unread = 1;
  applyCounts(v, counts);
}

/** Read all, repeated until the unread count stops changing or reaches 0; then the list again. */
export async function readAll(v: MessagesView, store: RootState): Promise<number> {
  v.thread.marks++;
  const left = await readAllUntilSettled(async () => {
    const counts = await withCount(store, () => messagesApi.readAll());
    applyCounts(v, counts);
    return typeof counts?.all === 'number' ? counts.all : 0;
  });
  for (const m of v.thread.messages) m.unread = 0;
  await loadList(v, true);
  return left;
}

/** Block or unblock the thread's show: memberstatus flips and the messages are loaded again. */
export async function toggleBlock(v: MessagesView, store: RootState): Promise<void> {
  const conv = v.thread.conversation;
  if (!conv || !conv.showid) return;
  v.thread.busy = true;
  try {
    const blocked = conv.block.memberstatus === 1;
    const res = await withCount(store, () => (blocked ? messagesApi.unblock(conv.showid) : messagesApi.block(conv.showid)), (r) => r?.counts);
    conv.block = res?.block ?? { ...conv.block, memberstatus: blocked ? 0 : 1 };
    for (const c of v.list.data) if (c.showid === conv.showid) c.block = { ...conv.block };
    applyCounts(v, res?.counts);
    await loadThread(v, store, { quiet: true, markRead: false });
  } finally {
    v.thread.busy = false;
  }
}

/**
 * Sends a message: the placeholder (id -1) shows at once; the answer replaces it, a failure
 * removes it and keeps the error code (no_coins offers the billing page). True when sent.
 */
export async function sendMessage(v: MessagesView, store: RootState, body: string, tip: number, nowMs = Date.now()): Promise<boolean> {
  const t = v.thread.target;
  if (!t || v.thread.sending) return false;
  const conv = v.thread.conversation;
  v.thread.sending = true;
  v.thread.sendError = null;
  v.thread.messages = withPlaceholder(v.thread.messages, placeholder(conv?.id ?? 0, body, tip, nowMs));
  try {
    const res = await withCount(
      store,
      () =>
        t.kind === 'support'
          ? messagesApi.sendSupport(body)
          : messagesApi.sendShow({ body, showid: conv?.showid || (t.kind === 'show' ? t.showid : 0), pseudoid: conv?.pseudoid ?? 0, coins: tip }),
      (r) => r.counts,
    );
    if (res.conversation) v.thread.conversation = res.conversation;
    v.thread.messages = confirmPlaceholder(v.thread.messages, res.message);
    const now = v.thread.conversation;
    // The support thread is not one of the list's conversations (the server's list and total leave it out).
    if (now && now.id > 0 && t.kind !== 'support') {
      const inList = v.list.data.find((c) => c.id === now.id);
      v.list.data = bumpConversation(v.list.data, afterSend(inList ?? now, res.message), v.filters.order_by);
      // A first message opened a conversation: the count says what the list shows.
      if (!inList && v.list.data.some((c) => c.id === now.id)) v.list.total += 1;
    }
    // A tip's answer carries user.coins, which the API layer writes into the store.
    applyCounts(v, res.counts);
    return true;
  } catch (e) {
    v.thread.messages = withoutPlaceholder(v.thread.messages);
    v.thread.sendError = e instanceof ApiFailure ? e.message : 'unknown_error';
    return false;
  } finally {
    v.thread.sending = false;
  }
}
