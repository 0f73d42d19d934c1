import {
  CONVERSATION_ORDERS,
  CONVERSATIONS_LATEST_LIMIT,
  CONVERSATIONS_UNREAD_LIMIT,
  MESSAGE_TIP_CHOICES,
  PLACEHOLDER_MESSAGE_ID,
  SHOWNAME_FILTER_MIN,
  type Conversation,
  type ConversationOrder,
  type Message,
} from '../../../shared/messages';

// The pure rules of the member's messages (spec part 2, sections 4, 5, 7, 9): list queries,
// the placeholder while sending, a conversation moving to the top, unread markers, read-all.

export interface InboxFilters {
  order_by: ConversationOrder;
  unread: boolean;
  showname: string;
  nickname: string;
  page: number;
}

export const DEFAULT_FILTERS: InboxFilters = { order_by: 'messagedate', unread: false, showname: '', nickname: '', page: 1 };

/** The id of the message shown while it is being sent. */
export const PLACEHOLDER_ID = PLACEHOLDER_MESSAGE_ID;

export type Query = Record<string, string | number | undefined>;

/** An order that is not one of the three is ignored (the default, messagedate, applies). */
export function parseOrder(value: string | null | undefined): ConversationOrder {
  return (CONVERSATION_ORDERS as readonly string[]).includes(value ?? '') ? (value as ConversationOrder) : 'messagedate';
}

/** Filters from the page's query string (bookmarkable inbox). */
export function filtersFromSearch(search: string | URLSearchParams): InboxFilters {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const page = Number.parseInt(q.get('page') ?? '1', 10);
  return {
    order_by: parseOrder(q.get('order_by')),
    unread: q.get('unread') === '1',
    showname: (q.get('showname') ?? '').slice(0, 60),
    nickname: (q.get('nickname') ?? '').slice(0, 60),
    page: Number.isFinite(page) && page > 0 ? Math.min(page, 10_000) : 1,
  };
}

/** The query string that reproduces the filters (defaults left out). */
export function searchFromFilters(f: InboxFilters): string {
  const q = new URLSearchParams();
  if (f.order_by !== 'messagedate') q.set('order_by', f.order_by);
  if (f.unread) q.set('unread', '1');
  if (f.showname.trim()) q.set('showname', f.showname.trim());
  if (f.nickname.trim()) q.set('nickname', f.nickname.trim());
  if (f.page > 1) q.set('page', String(f.page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** GET conversations parameters: the show-name filter only from 3 characters, the nickname filter when not empty. */
export function listQuery(f: InboxFilters): Query {
  const showname = f.showname.trim();
  const nickname = f.nickname.trim();
  return {
    page: f.page,
    order_by: f.order_by,
    unread: f.unread ? 1 : undefined,
    showname: showname.length >= SHOWNAME_FILTER_MIN ? showname : undefined,
    nickname: nickname.length > 0 ? nickname : undefined,
  };
}

/** The top bar menu's unread list: unread only, at most 50. */
export function unreadMenuQuery(): Query {
  return { unread: 1, limit: CONVERSATIONS_UNREAD_LIMIT };
}

/** The top bar menu's latest list: ordered by online, 3, without the conversations already listed as unread. */
export function latestMenuQuery(unreadIds: readonly number[]): Query {
  return { order_by: 'online', limit: CONVERSATIONS_LATEST_LIMIT, conversations_not: unreadIds.length ? unreadIds.join(',') : undefined };
}

/** The message shown at once while sending; it carries id -1 until the server answers. */
export function placeholder(conversationid: number, body: string, tip: number, nowMs: number): Message {
  return { messageid: PLACEHOLDER_ID, conversationid, body, message: body, author: 'member', time: Math.floor(nowMs / 1000), unread: 0, tip };
}

export function withPlaceholder(messages: readonly Message[], p: Message): Message[] {
  return [...withoutPlaceholder(messages), p];
}

export function withoutPlaceholder(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.messageid !== PLACEHOLDER_ID);
}

/** The sent message takes the placeholder's place (once, even if a reload already brought it). */
export function confirmPlaceholder(messages: readonly Message[], sent: Message): Message[] {
  return sortMessages(mergeMessages(withoutPlaceholder(messages), [sent]));
}

/** Oldest first, by time then id; the placeholder stays last. */
export function sortMessages(messages: readonly Message[]): Message[] {
  return [...messages].sort((a, b) => {
    if (a.messageid === PLACEHOLDER_ID) return 1;
    if (b.messageid === PLACEHOLDER_ID) return -1;
    return a.time - b.time || a.messageid - b.messageid;
  });
}

/** Messages of two pages together, each id once (the later copy wins: it has the current unread flag). */
export function mergeMessages(a: readonly Message[], b: readonly Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const m of [...a, ...b]) byId.set(m.messageid, m);
  return sortMessages([...byId.values()]);
}

/** Unread messages of the other side (the show or support): what reading the thread marks read. */
export function unreadTheirs(messages: readonly Message[]): number[] {
  return messages.filter((m) => m.unread && m.author !== 'member' && m.messageid > 0).map((m) => m.messageid);
}

/** "Mark as unread" marks the newest message of the other side unread again. */
export function lastTheirs(messages: readonly Message[]): number | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].author !== 'member' && messages[i].messageid > 0) return messages[i].messageid;
  return null;
}

/** Where the "New" marker goes: before the first unread message from the other side. */
export function firstUnreadId(messages: readonly Message[]): number | null {
  return messages.find((m) => m.unread && m.author !== 'member' && m.messageid !== PLACEHOLDER_ID)?.messageid ?? null;
}

/**
 * A conversation that got a newer message goes to the top of the list (the list is ordered by
 * the newest message). With another order, it keeps its place and only shows the new message.
 */
export function bumpConversation(list: readonly Conversation[], changed: Conversation, order: ConversationOrder): Conversation[] {
  const rest = list.filter((c) => c.id !== changed.id);
  if (order !== 'messagedate') {
    const at = list.findIndex((c) => c.id === changed.id);
    if (at < 0) return [...list];
    const copy = [...list];
    copy[at] = changed;
    return copy;
  }
  return [changed, ...rest];
}

/** The conversation as the list shows it after the member sent `body` now. */
export function afterSend(c: Conversation, sent: Message): Conversation {
  return { ...c, messageid: sent.messageid, messagebody: sent.body, messagedate: sent.time };
}

/**
 * Read-all until nothing changes: each call returns the remaining unread count; repeat while it
 * is above 0 and still falling (at most `max` calls, so a server that never settles cannot loop).
 */
export async function readAllUntilSettled(readAll: () => Promise<number>, max = 10): Promise<number> {
  let previous = Number.POSITIVE_INFINITY;
  let left = await readAll();
  for (let i = 1; i < max && left > 0 && left < previous; i++) {
    previous = left;
    left = await readAll();
  }
  return left;
}

/** Tip choices of the send box (coins); 0 is "no tip". */
export const TIP_CHOICES: readonly number[] = [0, ...MESSAGE_TIP_CHOICES];

/** True when the member cannot pay the chosen tip (the box says so before sending). */
export function tipUnaffordable(tip: number, coins: number | null | undefined): boolean {
  return tip > 0 && (coins ?? 0) < tip;
}
