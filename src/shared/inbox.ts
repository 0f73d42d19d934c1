import type { BlockState, Message, MessageList } from './messages';
import type { Paged } from './shows';

// The wire types of the studio inbox (/api/studio/conversations: the performer of the
// conversation's show) and of the operator inbox (/api/support/conversations).

/** A conversation as the performer (or an operator) sees it: never the member's name or e-mail. */
export interface InboxConversation {
  id: number;
  memberpseudo: string;
  messagebody: string;
  messagedate: number;
  messageid: number | null;
  /** Messages of the member not yet read on this side. */
  unread: number;
  /** Coins the member tipped in this conversation in all. */
  tips: number;
  block: BlockState;
}

/**
 * The member behind a support thread, for operators only (never the studio side): the account,
 * so a payment or a chat the member writes about can be found. Times are Unix seconds.
 */
export interface SupportMember {
  id: number;
  name: string;
  email: string;
  coins: number;
  payments: { id: number; status: string; coins: number; amount_cents: number; currency: string; provider: string; at: number }[];
  /** refunded: an operator gave its coins back (1), or not (0). */
  chats: { id: string; show_id: number; show_name: string; type: string; state: string; minutes: number; coins: number; at: number; refunded: number }[];
}

export interface InboxMessages {
  conversation: InboxConversation;
  messages: MessageList;
  /** Support side only. */
  member?: SupportMember;
}

/** GET studio/conversations and support/conversations: paged, plus the side's unread count. */
export interface InboxList extends Paged<InboxConversation> {
  unread: number;
}

export interface InboxReplyAnswer {
  message: Message;
  conversation: InboxConversation;
}

/**
 * The realtime event user:mc carries the member's unread count. Studio and operator counts go out
 * as the same event with a `side` ('studio' | 'support'); the member badge ignores those.
 */
export type McSide = 'studio' | 'support';
