import type { InboxConversation, SupportMember } from '../../../shared/inbox';
import type { MessageRow, ThreadSummaryRow } from './conversations.repo';

// All SQL of the other side of conversations: the performer's studio inbox (the conversations of
// their show) and the operator inbox (show_id 0, the support threads). Every query binds the
// show id of the side (0 for support), so a performer never reaches another show's threads.
// Only member_pseudo leaves these queries: never the member's name, e-mail or id; the one
// exception is supportMember, which answers operators only (the support side).


const UNREAD_FOR_SIDE = "m.read_side = 0 AND m.author = 'member'";

const INBOX_SELECT = `SELECT c.id, c.user_id, c.member_pseudo, c.tips,
  COALESCE(b.by_member, 0) AS by_member, COALESCE(b.by_show, 0) AS by_show,
  lm.id AS last_id, lm.body AS last_body, lm.created_at AS last_at,
  (SELECT COUNT(*) FROM messages m WHERE m.show_id = c.show_id AND m.conversation_id = c.id AND ${UNREAD_FOR_SIDE}) AS unread
FROM conversations c
LEFT JOIN message_blocks b ON b.user_id = c.user_id AND b.show_id = c.show_id
LEFT JOIN messages lm ON lm.id = (SELECT m.id FROM messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1)`;

function toInbox(r: ThreadSummaryRow): InboxConversation {
  return {
    id: r.id,
    memberpseudo: r.member_pseudo,
    messagebody: r.last_body ?? '',
    messagedate: r.last_at ?? 0,
    messageid: r.last_id,
    unread: r.unread,
    tips: r.tips,
    block: { memberstatus: r.by_member ? 1 : 0, showstatus: r.by_show ? 1 : 0 },
  };
}

export async function inboxList(db: D1Database, showId: number, limit: number, offset: number): Promise<{ rows: InboxConversation[]; total: number; unread: number }> {
  const [rows, total, unread] = await db.batch([
    db.prepare(`${INBOX_SELECT} WHERE c.show_id = ? AND c.last_message_at > 0 ORDER BY c.last_message_at DESC, c.id DESC LIMIT ? OFFSET ?`).bind(showId, limit, offset),
    db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE show_id = ? AND last_message_at > 0').bind(showId),
    db.prepare(`SELECT COUNT(*) AS n FROM messages m WHERE m.show_id = ? AND ${UNREAD_FOR_SIDE}`).bind(showId),
  ]);
  return {
    rows: (rows.results as ThreadSummaryRow[]).map(toInbox),
    total: (total.results[0] as { n: number }).n,
    unread: (unread.results[0] as { n: number }).n,
  };
}

/** A conversation of this side (show id, or 0 for support) with its member's id for notifying. */
export async function inboxConversation(db: D1Database, showId: number, id: number): Promise<{ conversation: InboxConversation; userId: number } | null> {
  const row = await db.prepare(`${INBOX_SELECT} WHERE c.id = ? AND c.show_id = ?`).bind(id, showId).first<ThreadSummaryRow>();
  return row ? { conversation: toInbox(row), userId: row.user_id } : null;
}

export async function sideUnread(db: D1Database, showId: number): Promise<number> {
  return (await db.prepare(`SELECT COUNT(*) AS n FROM messages m WHERE m.show_id = ? AND ${UNREAD_FOR_SIDE}`).bind(showId).first<{ n: number }>())?.n ?? 0;
}

/** Page of a conversation's messages for the performer/operator (page 1 = newest), oldest first. */
export async function sideMessages(db: D1Database, conversationId: number, limit: number, offset: number): Promise<{ rows: MessageRow[]; total: number }> {
  const [rows, total] = await db.batch([
    db.prepare('SELECT id, conversation_id, author, body, tip, created_at, read_member, read_side FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT ? OFFSET ?').bind(conversationId, limit, offset),
    db.prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?').bind(conversationId),
  ]);
  return { rows: (rows.results as MessageRow[]).reverse(), total: (total.results[0] as { n: number }).n };
}

/** Marks every message of the member in the conversation read on this side. */
export async function markSideRead(db: D1Database, showId: number, conversationId: number): Promise<void> {
  await db.prepare("UPDATE messages SET read_side = 1 WHERE conversation_id = ? AND show_id = ? AND author = 'member' AND read_side = 0").bind(conversationId, showId).run();
}

/** The reply of the performer (author show) or an operator (author support); returns its row. */
export async function insertReply(db: D1Database, showId: number, conversationId: number, authorUserId: number, body: string, now: number): Promise<MessageRow | null> {
  const author = showId === 0 ? 'support' : 'show';
  const [, ins] = await db.batch([
    db.prepare('UPDATE conversations SET member_hidden = 0, last_message_at = MAX(last_message_at, ?) WHERE id = ? AND show_id = ?').bind(now, conversationId, showId),
    db
      .prepare(
        `INSERT INTO messages (conversation_id, user_id, show_id, author, author_user_id, body, created_at, read_side)
         SELECT id, user_id, show_id, ?3, ?4, ?5, ?6, 1 FROM conversations WHERE id = ?1 AND show_id = ?2
         RETURNING id, conversation_id, author, body, tip, created_at, read_member, read_side`,
      )
      .bind(conversationId, showId, author, authorUserId, body, now),
  ]);
  return (ins.results[0] as MessageRow | undefined) ?? null;
}

export async function setShowBlock(db: D1Database, userId: number, showId: number, blocked: boolean, now: number): Promise<void> {
  if (!blocked) {
    await db.batch([
      db.prepare('UPDATE message_blocks SET by_show = 0, updated_at = ? WHERE user_id = ? AND show_id = ?').bind(now, userId, showId),
      db.prepare('DELETE FROM message_blocks WHERE user_id = ? AND show_id = ? AND by_member = 0 AND by_show = 0').bind(userId, showId),
    ]);
    return;
  }
  await db
    .prepare('INSERT INTO message_blocks (user_id, show_id, by_show, updated_at) VALUES (?1, ?2, 1, ?3) ON CONFLICT (user_id, show_id) DO UPDATE SET by_show = 1, updated_at = ?3')
    .bind(userId, showId, now)
    .run();
}

export async function operatorIds(db: D1Database): Promise<number[]> {
  const { results } = await db.prepare('SELECT user_id FROM operators').all<{ user_id: number }>();
  return results.map((r) => r.user_id);
}

/** How many of the member's latest payments and chats an operator sees beside a support thread. */
const SUPPORT_RECENT = 10;

/** The account behind a support thread (operators only): name, e-mail, balance, latest payments and chats. */
export async function supportMember(db: D1Database, userId: number): Promise<SupportMember | null> {
  const [user, payments, chats] = await db.batch([
    db.prepare('SELECT id, name, email, coins FROM users WHERE id = ?').bind(userId),
    db
      .prepare('SELECT id, status, coins, amount_cents, currency, provider, created_at AS at FROM billings WHERE user_id = ? ORDER BY id DESC LIMIT ?')
      .bind(userId, SUPPORT_RECENT),
    // chat_sessions keeps milliseconds.
    db
      .prepare(
        `SELECT cs.id, cs.show_id, COALESCE(s.name, '') AS show_name, cs.type, cs.state, cs.minutes, cs.coins, cs.created_at / 1000 AS at,
           EXISTS (SELECT 1 FROM ledger l WHERE l.ref >= 'refund:chat:' || cs.id || ':' AND l.ref < 'refund:chat:' || cs.id || ';') AS refunded
         FROM chat_sessions cs LEFT JOIN shows s ON s.id = cs.show_id WHERE cs.user_id = ? ORDER BY cs.created_at DESC LIMIT ?`,
      )
      .bind(userId, SUPPORT_RECENT),
  ]);
  const u = user.results[0] as { id: number; name: string; email: string; coins: number } | undefined;
  if (!u) return null;
  return { ...u, payments: payments.results as SupportMember['payments'], chats: chats.results as SupportMember['chats'] };
}
