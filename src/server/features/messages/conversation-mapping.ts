import type { Conversation, Message } from '../../../shared/messages';
import { showImageSrc } from '../../../shared/shows';
import type { ConversationRow, MessageRow, ShowBrief } from './conversations.repo';

// Rows of conversations.repo.ts as the wire types of src/shared/messages.ts.

export function toMessage(r: MessageRow, reader: 'member' | 'side'): Message {
  const unread = reader === 'member' ? r.author !== 'member' && r.read_member === 0 : r.author === 'member' && r.read_side === 0;
  return { messageid: r.id, conversationid: r.conversation_id, body: r.body, message: r.body, author: r.author, time: r.created_at, unread: unread ? 1 : 0, tip: r.tip };
}

export function toConversation(r: ConversationRow): Conversation {
  const support = r.show_id === 0;
  return {
    id: r.id,
    conversationid: r.id,
    showid: r.show_id,
    pseudoid: r.pseudo_id,
    masterreferenceid: support || r.contentprovider_id === null ? '' : `${r.contentprovider_id}-${r.show_id}`,
    messageid: r.last_id,
    showprofile:
      support || r.show_name === null
        ? null
        : { id: r.show_id, showname: r.show_name, online: r.show_online === 1, universalId: r.universal_id ?? '', slugName: r.slug_name ?? '', thumb: showImageSrc(r.show_id, 1) },
    support,
    block: { memberstatus: r.by_member ? 1 : 0, showstatus: r.by_show ? 1 : 0 },
    messagebody: r.last_body ?? '',
    messagedate: r.last_at ?? 0,
    lastchatdate: r.lastchat_ms === null ? null : Math.floor(r.lastchat_ms / 1000),
    memberpseudo: r.member_pseudo,
    unread: r.unread,
  };
}

/** A conversation that does not exist yet (GET conversations/conversation before the first message). */
export function draftConversation(show: ShowBrief | null, pseudoId: number, pseudo: string, block: { by_member: number; by_show: number }): Conversation {
  return toConversation({
    id: 0,
    user_id: 0,
    show_id: show?.id ?? 0,
    pseudo_id: pseudoId,
    member_pseudo: pseudo,
    last_message_at: 0,
    tips: 0,
    show_name: show?.name ?? null,
    show_online: show?.online ?? null,
    universal_id: show?.universal_id ?? null,
    slug_name: show?.slug_name ?? null,
    contentprovider_id: show?.contentprovider_id ?? null,
    by_member: block.by_member,
    by_show: block.by_show,
    last_id: null,
    last_body: null,
    last_at: null,
    unread: 0,
    lastchat_ms: null,
  });
}
