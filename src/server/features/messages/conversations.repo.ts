import type { ConversationOrder, Counts, MessageAuthor } from '../../../shared/messages';

// The SQL of the member's side of conversations (issue 14; the member's marks: member-marks.repo.ts). A member reaches only rows with
// their own user_id: every query binds it, so another member's ids find nothing.

/** What both sides' lists read of a conversation: the member's pseudonym, tips, blocks, last message and unread count. */
export interface ThreadSummaryRow {
  id: number;
  user_id: number;
  member_pseudo: string;
  tips: number;
  by_member: number;
  by_show: number;
  last_id: number | null;
  last_body: string | null;
  last_at: number | null;
  unread: number;
}

export interface ConversationRow extends ThreadSummaryRow {
  show_id: number;
  pseudo_id: number;
  last_message_at: number;
  show_name: string | null;
  show_online: number | null;
  universal_id: string | null;
  slug_name: string | null;
  contentprovider_id: number | null;
  lastchat_ms: number | null;
}

export interface MessageRow {
  id: number;
  conversation_id: number;
  author: MessageAuthor;
  body: string;
  tip: number;
  created_at: number;
  read_member: number;
  read_side: number;
}

/** A message the member has not read (and not deleted): the show's or support's. */
export const UNREAD_FOR_MEMBER = "m.read_member = 0 AND m.deleted_member = 0 AND m.author <> 'member'";

/** The member's view of conversations; `c` is the conversation. */
const MEMBER_SELECT = `SELECT c.id, c.user_id, c.show_id, c.pseudo_id, c.member_pseudo, c.last_message_at, c.tips,
  s.name AS show_name, s.online AS show_online, s.universal_id, s.slug_name, s.contentprovider_id,
  COALESCE(b.by_member, 0) AS by_member, COALESCE(b.by_show, 0) AS by_show,
  lm.id AS last_id, lm.body AS last_body, lm.created_at AS last_at,
  CASE WHEN COALESCE(b.by_member, 0) = 1 THEN 0 ELSE
    (SELECT COUNT(*) FROM messages m WHERE m.user_id = c.user_id AND m.conversation_id = c.id AND ${UNREAD_FOR_MEMBER}) END AS unread,
  (SELECT MAX(cs.created_at) FROM chat_sessions cs WHERE cs.user_id = c.user_id AND cs.show_id = c.show_id) AS lastchat_ms
FROM conversations c
LEFT JOIN shows s ON s.id = c.show_id
LEFT JOIN message_blocks b ON b.user_id = c.user_id AND b.show_id = c.show_id
LEFT JOIN messages lm ON lm.id = (SELECT m.id FROM messages m WHERE m.conversation_id = c.id AND m.deleted_member = 0 ORDER BY m.id DESC LIMIT 1)`;

const LIST_WHERE = `WHERE c.user_id = ?1 AND c.member_hidden = 0 AND c.show_id <> 0
  AND (?2 = 0 OR EXISTS (SELECT 1 FROM messages m WHERE m.user_id = c.user_id AND m.conversation_id = c.id AND ${UNREAD_FOR_MEMBER}))
  AND (?3 IS NULL OR s.name LIKE ?3 ESCAPE '\\')
  AND (?4 = 0 OR c.pseudo_id = ?4)
  AND (?5 IS NULL OR c.member_pseudo LIKE ?5 ESCAPE '\\')
  AND c.id NOT IN (SELECT value FROM json_each(?6))`;

/** Fixed ORDER BY clauses (spec section 4); the order name only picks one of them. */
const ORDERS: Record<ConversationOrder, string> = {
  messagedate: 'c.last_message_at DESC, c.id DESC',
  lastchatdate: 'lastchat_ms IS NULL, lastchat_ms DESC, c.last_message_at DESC, c.id DESC',
  online: 'COALESCE(s.online, 0) DESC, c.last_message_at DESC, c.id DESC',
};

export interface ListFilter {
  userId: number;
  unread: boolean;
  showname: string | null;
  pseudoId: number;
  nickname: string | null;
  not: number[];
  order: ConversationOrder;
  limit: number;
  offset: number;
}

const likeArg = (text: string | null) => (text === null ? null : `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);

export async function listConversations(db: D1Database, f: ListFilter): Promise<{ rows: ConversationRow[]; total: number }> {
  const args = [f.userId, f.unread ? 1 : 0, likeArg(f.showname), f.pseudoId, likeArg(f.nickname), JSON.stringify(f.not)];
  const [rows, total] = await db.batch([
    db.prepare(`${MEMBER_SELECT} ${LIST_WHERE} ORDER BY ${ORDERS[f.order]} LIMIT ?7 OFFSET ?8`).bind(...args, f.limit, f.offset),
    db.prepare(`SELECT COUNT(*) AS n FROM conversations c LEFT JOIN shows s ON s.id = c.show_id ${LIST_WHERE}`).bind(...args),
  ]);
  return { rows: rows.results as ConversationRow[], total: (total.results[0] as { n: number }).n };
}

export function conversationById(db: D1Database, userId: number, id: number): Promise<ConversationRow | null> {
  return db.prepare(`${MEMBER_SELECT} WHERE c.id = ?1 AND c.user_id = ?2`).bind(id, userId).first<ConversationRow>();
}

export function conversationByKey(db: D1Database, userId: number, showId: number, pseudoId: number): Promise<ConversationRow | null> {
  return db.prepare(`${MEMBER_SELECT} WHERE c.user_id = ?1 AND c.show_id = ?2 AND c.pseudo_id = ?3`).bind(userId, showId, pseudoId).first<ConversationRow>();
}

export interface ShowBrief {
  id: number;
  name: string;
  online: number;
  universal_id: string;
  slug_name: string;
  contentprovider_id: number;
}

export function showBrief(db: D1Database, showId: number): Promise<ShowBrief | null> {
  return db.prepare('SELECT id, name, online, universal_id, slug_name, contentprovider_id FROM shows WHERE id = ?').bind(showId).first<ShowBrief>();
}

/** The member's nickname with this id (a pseudonym they may write under), else null. */
export async function ownNickname(db: D1Database, userId: number, nicknameId: number): Promise<string | null> {
  return (await db.prepare('SELECT nickname FROM nicknames WHERE id = ? AND user_id = ?').bind(nicknameId, userId).first<{ nickname: string }>())?.nickname ?? null;
}

export async function blockOf(db: D1Database, userId: number, showId: number): Promise<{ by_member: number; by_show: number }> {
  return (await db.prepare('SELECT by_member, by_show FROM message_blocks WHERE user_id = ? AND show_id = ?').bind(userId, showId).first<{ by_member: number; by_show: number }>()) ?? { by_member: 0, by_show: 0 };
}

/** Is the member in a voice-call chat session (paid by a phone call) with the show right now? */
export async function inVoicecallSession(db: D1Database, userId: number, showId: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS x FROM chat_sessions WHERE user_id = ? AND show_id = ? AND phone_billing_id IS NOT NULL AND state <> 'ended' LIMIT 1")
    .bind(userId, showId)
    .first();
  return row !== null;
}

/** Page of a conversation's messages for the member (page 1 = the newest), oldest first. */
export async function memberMessages(db: D1Database, conversationId: number, limit: number, offset: number): Promise<{ rows: MessageRow[]; total: number }> {
  const [rows, total] = await db.batch([
    db
      .prepare('SELECT id, conversation_id, author, body, tip, created_at, read_member, read_side FROM messages WHERE conversation_id = ? AND deleted_member = 0 ORDER BY id DESC LIMIT ? OFFSET ?')
      .bind(conversationId, limit, offset),
    db.prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND deleted_member = 0').bind(conversationId),
  ]);
  return { rows: (rows.results as MessageRow[]).reverse(), total: (total.results[0] as { n: number }).n };
}

export function memberMessage(db: D1Database, userId: number, messageId: number): Promise<MessageRow | null> {
  return db
    .prepare('SELECT id, conversation_id, author, body, tip, created_at, read_member, read_side FROM messages WHERE id = ? AND user_id = ? AND deleted_member = 0')
    .bind(messageId, userId)
    .first<MessageRow>();
}

/** The member's unread counts per conversation (blocked shows do not count). */
export async function memberCounts(db: D1Database, userId: number): Promise<Counts> {
  const { results } = await db
    .prepare(
      `SELECT m.conversation_id AS id, COUNT(*) AS n FROM messages m
       WHERE m.user_id = ?1 AND ${UNREAD_FOR_MEMBER}
         AND m.show_id NOT IN (SELECT b.show_id FROM message_blocks b WHERE b.user_id = ?1 AND b.by_member = 1)
       GROUP BY m.conversation_id`,
    )
    .bind(userId)
    .all<{ id: number; n: number }>();
  const counts: Counts = { all: 0 };
  for (const r of results) {
    counts[String(r.id)] = r.n;
    counts.all += r.n;
  }
  return counts;
}

export interface NewMemberMessage {
  userId: number;
  showId: number;
  pseudoId: number;
  pseudo: string;
  body: string;
  tip: number;
  tipRef: string | null;
  now: number;
}

/**
 * The member's message: the conversation (made on the first message, shown again if hidden) and
 * the message row, as statements for one batch (with the tip's ledger rows when there is a tip).
 */
export function memberMessageStatements(db: D1Database, m: NewMemberMessage): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO conversations (user_id, show_id, pseudo_id, member_pseudo, last_message_at, tips, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?5)
         ON CONFLICT (user_id, show_id, pseudo_id) DO UPDATE SET member_hidden = 0, last_message_at = MAX(last_message_at, ?5), tips = tips + ?6`,
      )
      .bind(m.userId, m.showId, m.pseudoId, m.pseudo, m.now, m.tip),
    db
      .prepare(
        `INSERT INTO messages (conversation_id, user_id, show_id, author, author_user_id, body, tip, tip_ref, created_at, read_member)
         SELECT id, user_id, show_id, 'member', user_id, ?4, ?5, ?6, ?7, 1 FROM conversations WHERE user_id = ?1 AND show_id = ?2 AND pseudo_id = ?3 RETURNING id`,
      )
      .bind(m.userId, m.showId, m.pseudoId, m.body, m.tip, m.tipRef, m.now),
  ];
}

export async function messageIdByTipRef(db: D1Database, ref: string): Promise<number | null> {
  return (await db.prepare('SELECT id FROM messages WHERE tip_ref = ?').bind(ref).first<{ id: number }>())?.id ?? null;
}

export async function performerUserOf(db: D1Database, showId: number): Promise<number | null> {
  return (await db.prepare('SELECT user_id FROM performers WHERE show_id = ?').bind(showId).first<{ user_id: number }>())?.user_id ?? null;
}
