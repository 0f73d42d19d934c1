import type { Paged } from './shows';

// Conversations and messages (issue 14): the wire types of every /api/conversations answer (the
// studio and operator inboxes' are in inbox.ts), the limits of spec section 9 and the error
// codes. Shared by the worker and the islands.
// The 60 s poll of the message count (spec section 9) is MESSAGE_POLL_MS in constants.ts.

/** Spec section 9. */
export const CONVERSATIONS_UNREAD_LIMIT = 50;
export const CONVERSATIONS_LATEST_LIMIT = 3;
export const SHOWNAME_FILTER_MIN = 3;
/** Default page size of GET conversations (when no `limit` is given) and the largest `limit`. */
export const CONVERSATIONS_PAGE_SIZE = 20;
export const CONVERSATIONS_LIMIT_MAX = 50;
/** Messages per page of GET conversations/{id}/messages (page 1 = the newest). */
export const MESSAGES_PAGE_SIZE = 30;
/** conversations_not: at most this many ids are used (the rest is ignored). */
export const CONVERSATIONS_NOT_MAX = 100;
/** read / unread: at most this many message ids per call (more: 422 on `ids`). */
export const READ_IDS_MAX = 200;
/** read_all marks at most this many messages per call; the client repeats it (spec section 4). */
export const READ_ALL_BATCH = 500;
/** Message body: 1..MESSAGE_BODY_MAX characters after trimming. */
export const MESSAGE_BODY_MAX = 2000;
/** A tip in a message: 1..MESSAGE_TIP_MAX coins. */
export const MESSAGE_TIP_MAX = 10_000;
/** Tip choices offered by the send box's tip selector (any value 1..MESSAGE_TIP_MAX is accepted). */
export const MESSAGE_TIP_CHOICES = [5, 10, 25, 50, 100] as const;
/** A member sends at most this many messages (shows and support) per window; more: 429 messages.throttled. */
export const MESSAGE_SEND_LIMIT = 120;
export const MESSAGE_SEND_WINDOW_S = 60;
/** The id of the placeholder message shown while sending (spec section 3). */
export const PLACEHOLDER_MESSAGE_ID = -1;
/** The path segment for the support thread: GET conversations/support/messages. */
export const SUPPORT_ID = 'support';

/** Spec section 4: order_by values; anything else means the default, messagedate. */
export const CONVERSATION_ORDERS = ['messagedate', 'lastchatdate', 'online'] as const;
export type ConversationOrder = (typeof CONVERSATION_ORDERS)[number];
export const DEFAULT_CONVERSATION_ORDER: ConversationOrder = 'messagedate';

/** Routes (under /api). */
export const CONVERSATION_ROUTES = {
  list: 'conversations',
  count: 'conversations/count',
  conversation: 'conversations/conversation',
  message: (messageId: number) => `conversations/message/${messageId}`,
  messages: (id: number | typeof SUPPORT_ID) => `conversations/${id}/messages`,
  read: 'conversations/read',
  readAll: 'conversations/read_all',
  unread: 'conversations/unread',
  block: (showId: number) => `conversations/block/${showId}`,
  unblock: (showId: number) => `conversations/unblock/${showId}`,
  support: 'conversations/support',
  show: 'conversations/show',
  remove: (id: number) => `conversations/${id}`,
  removeMessage: (messageId: number) => `conversations/message/${messageId}`,
  // The performer's studio inbox (performers only; their own show).
  studioList: 'studio/conversations',
  studioMessages: (id: number) => `studio/conversations/${id}/messages`,
  studioReply: (id: number) => `studio/conversations/${id}/reply`,
  studioRead: (id: number) => `studio/conversations/${id}/read`,
  studioBlock: (id: number) => `studio/conversations/${id}/block`,
  studioUnblock: (id: number) => `studio/conversations/${id}/unblock`,
  // The operator inbox (operators only).
  supportList: 'support/conversations',
  supportMessages: (id: number) => `support/conversations/${id}/messages`,
  supportReply: (id: number) => `support/conversations/${id}/reply`,
  supportRead: (id: number) => `support/conversations/${id}/read`,
} as const;

/** Pages. */
export const OPERATOR_INBOX_PATH = '/operator/messages';

/**
 * Error codes (`message` of the error body; field errors carry the same codes). The client
 * translates them as errors.<code>.
 */
export const MESSAGE_ERRORS = {
  /** 422 on `coins`: the member's balance does not cover the tip (nothing is sent). */
  noCoins: 'messages.no_coins',
  /** 422 on `coins`: no tips in voice-call mode (the session's voice call, or a voice-call chat session with the show). */
  tipVoicecall: 'messages.tip_voicecall',
  /** 403: the conversation is blocked (by the member: unblock first; or by the performer). */
  blocked: 'messages.blocked',
  /** 404: conversation, message or show not found (also when it belongs to someone else). */
  notFound: 'messages.not_found',
  /** 422 on `pseudoid`: not 0 and not one of the member's nicknames. */
  invalidPseudo: 'messages.invalid_pseudo',
  /** 422 field codes (message `validation_failed`): body missing/empty, too long; other malformed fields `messages.invalid`. */
  bodyRequired: 'messages.body_required',
  bodyTooLong: 'messages.body_too_long',
  invalid: 'messages.invalid',
  /** 429: too many messages in a short time (Retry-After). */
  throttled: 'messages.throttled',
  /** 403: the studio inbox for an account without a show / the operator inbox for a non-operator. */
  notPerformer: 'not_performer',
  notOperator: 'not_operator',
  /** 403: writing to a show needs a verified e-mail (support does not). */
  notVerified: 'not_verified',
} as const;
export type MessageErrorCode = (typeof MESSAGE_ERRORS)[keyof typeof MESSAGE_ERRORS];

/** Spec section 3: showprofile of a conversation. */
export interface ShowProfile {
  id: number;
  showname: string;
  online: boolean;
  universalId: string;
  slugName: string;
  /** Thumbnail (first preview image) of the show. */
  thumb: string;
}

/** memberstatus 1: the member blocked the show. showstatus 1: the performer blocked the member. */
export interface BlockState {
  memberstatus: 0 | 1;
  showstatus: 0 | 1;
}

/**
 * Spec section 3 Conversation, as the member sees it. `id` and `conversationid` are the same.
 * The support thread has showid 0 and showprofile null (support: true).
 * GET conversations/conversation answers id 0 when the member has no conversation with that show
 * and pseudonym yet (messageid null, messagebody ''): the first POST conversations/show makes it.
 */
export interface Conversation {
  id: number;
  conversationid: number;
  showid: number;
  /** 0: the member's own pseudonym for this show; otherwise the id of one of the member's nicknames. */
  pseudoid: number;
  /** The show's provider reference (`{contentproviderId}-{showId}`), '' for support. */
  masterreferenceid: string;
  /** The latest message (null: none yet). */
  messageid: number | null;
  showprofile: ShowProfile | null;
  support: boolean;
  block: BlockState;
  messagebody: string;
  /** Latest message time, unix seconds (0 when none). */
  messagedate: number;
  /** The member's last chat session with the show, unix seconds, or null. */
  lastchatdate: number | null;
  /** The name the performer sees for the member in this conversation. */
  memberpseudo: string;
  /** Unread messages of the show (or support) for the member. */
  unread: number;
}

export type MessageAuthor = 'member' | 'show' | 'support';

/** Spec section 3 Message. */
export interface Message {
  messageid: number;
  conversationid: number;
  body: string;
  /** The same text (the spec names it message/body). */
  message: string;
  author: MessageAuthor;
  /** unix seconds */
  time: number;
  /** 1: not yet read by the reader of this answer (the member, the performer or the operator). */
  unread: 0 | 1;
  /** Coins tipped with this message (0: none). */
  tip: number;
}

/** Spec section 3 counts: `all` and one entry per conversation id with unread messages. */
export type Counts = { all: number } & Record<string, number>;

/**
 * GET conversations: the member's show conversations (the support thread is not listed; it has
 * GET conversations/support/messages). Query: page, order_by, unread=1, showname (from 3
 * characters), nickname (a nickname id > 0 = pseudoid, or text in the pseudonym), limit (default
 * CONVERSATIONS_PAGE_SIZE, at most CONVERSATIONS_LIMIT_MAX), conversations_not (`1,2` or repeated
 * `conversations_not[]`). Malformed values fall back to their defaults (never a 422).
 */
export type ConversationList = Paged<Conversation>;
export type MessageList = Paged<Message>;

/** GET conversations/{id|support}/messages?page (id 0 with showid&pseudoid): page 1 = the newest MESSAGES_PAGE_SIZE, oldest first. */
export interface ConversationMessages {
  conversation: Conversation;
  messages: MessageList;
}

/** POST conversations/show and POST conversations/support. `user.coins` is set after a tip. */
export interface SendAnswer {
  message: Message;
  conversation: Conversation;
  counts: Counts;
  user?: { coins: number };
}

/** POST conversations/read, read_all, unread; DELETE conversations/{id} and message/{id}. */
export type CountsAnswer = Counts;

/** POST conversations/block|unblock/{showid}. */
export interface BlockAnswer {
  showid: number;
  block: BlockState;
  counts: Counts;
}

/** GET conversations/message/{messageid}. */
export type MessageAnswer = Message;

/** What the member's conversation routes answer (CONVERSATION_ROUTES of the same name): the client's calls and the server's handlers type their answers by it. */
export interface ConversationAnswers {
  list: ConversationList;
  count: Counts;
  conversation: Conversation;
  messages: ConversationMessages;
  read: Counts;
  readAll: Counts;
  unread: Counts;
  block: BlockAnswer;
  unblock: BlockAnswer;
  show: SendAnswer;
  support: SendAnswer;
}
