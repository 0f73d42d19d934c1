import { UNREAD_FOR_MEMBER } from './conversations.repo';

// What the member marks on their side of conversations: messages read or unread, a show blocked,
// a conversation or message removed from their view. Every statement binds the member's user_id.

/** Marks messages of the show/support read (or unread) for the member; others' ids change nothing. */
export async function setMemberRead(db: D1Database, userId: number, ids: number[], read: boolean): Promise<void> {
  await db
    .prepare("UPDATE messages SET read_member = ?1 WHERE user_id = ?2 AND author <> 'member' AND deleted_member = 0 AND id IN (SELECT value FROM json_each(?3))")
    .bind(read ? 1 : 0, userId, JSON.stringify(ids))
    .run();
}

/** Marks up to `batch` unread messages read; the client repeats while the count changes. */
export async function readAllBatch(db: D1Database, userId: number, batch: number): Promise<void> {
  await db
    .prepare(`UPDATE messages SET read_member = 1 WHERE id IN (SELECT m.id FROM messages m WHERE m.user_id = ? AND ${UNREAD_FOR_MEMBER} LIMIT ?)`)
    .bind(userId, batch)
    .run();
}

/** A row only while some block holds: unblocking both sides leaves no trace. */
function dropUnblocked(db: D1Database, userId: number, showId: number): D1PreparedStatement {
  return db.prepare('DELETE FROM message_blocks WHERE user_id = ? AND show_id = ? AND by_member = 0 AND by_show = 0').bind(userId, showId);
}

export async function setMemberBlock(db: D1Database, userId: number, showId: number, blocked: boolean, now: number): Promise<void> {
  if (!blocked) {
    await db.batch([db.prepare('UPDATE message_blocks SET by_member = 0, updated_at = ? WHERE user_id = ? AND show_id = ?').bind(now, userId, showId), dropUnblocked(db, userId, showId)]);
    return;
  }
  await db
    .prepare('INSERT INTO message_blocks (user_id, show_id, by_member, updated_at) VALUES (?1, ?2, 1, ?3) ON CONFLICT (user_id, show_id) DO UPDATE SET by_member = 1, updated_at = ?3')
    .bind(userId, showId, now)
    .run();
}

/** The member removes a conversation from their list (its messages leave their view). */
export async function hideConversation(db: D1Database, userId: number, id: number): Promise<boolean> {
  const [res] = await db.batch([
    db.prepare('UPDATE conversations SET member_hidden = 1 WHERE id = ? AND user_id = ? AND member_hidden = 0').bind(id, userId),
    db.prepare('UPDATE messages SET deleted_member = 1 WHERE conversation_id = ? AND user_id = ?').bind(id, userId),
  ]);
  return res.meta.changes > 0;
}

export async function deleteMemberMessage(db: D1Database, userId: number, messageId: number): Promise<boolean> {
  const res = await db.prepare('UPDATE messages SET deleted_member = 1 WHERE id = ? AND user_id = ? AND deleted_member = 0').bind(messageId, userId).run();
  return res.meta.changes > 0;
}
