// What the logins of a member have open (issue 24 point 9): chats started under a login end with it.

export interface OpenChat {
  id: string;
  show_id: number;
}

/**
 * The member's open chats whose browser session is no live login of theirs: a login's chats carry
 * its session id (chat_sessions.visitor, moved along when the session rotates), so after a logout
 * or a password change these are exactly the chats of the logins that ended.
 */
export async function chatsOfEndedLogins(db: D1Database, userId: number, now: number): Promise<OpenChat[]> {
  const { results } = await db
    .prepare(
      `SELECT id, show_id FROM chat_sessions WHERE user_id = ?1 AND state <> 'ended'
         AND visitor NOT IN (SELECT session_id FROM auth_tokens WHERE user_id = ?1 AND session_id IS NOT NULL AND expires_at > ?2)`,
    )
    .bind(userId, now)
    .all<OpenChat>();
  return results;
}

/** Chats that no room holds any more: closed in D1 alike (nothing is charged for them). */
export async function endChatRows(db: D1Database, ids: string[], nowMs: number): Promise<void> {
  if (ids.length === 0) return;
  await db.batch(ids.map((id) => db.prepare("UPDATE chat_sessions SET state = 'ended', ended_at = ?, end_reason = 'logout' WHERE id = ? AND state <> 'ended'").bind(nowMs, id)));
}

export async function performerShowOf(db: D1Database, userId: number): Promise<number | null> {
  return (await db.prepare('SELECT show_id FROM performers WHERE user_id = ?').bind(userId).first<{ show_id: number }>())?.show_id ?? null;
}
