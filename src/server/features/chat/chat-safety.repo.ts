import { MODERATORS_MAX } from '../../../shared/chat-safety';

// Chat safety's rows (migration 0039): a show's word list and its moderators, and the show's
// regulars. A regular is a member with a chat session in the show that ran (free or paid:
// started_at set); tips are made inside such a session, so a member who paid is one too.

/** The show's word list (folded). */
export async function blockedWords(db: D1Database, showId: number): Promise<string[]> {
  const { results } = await db.prepare('SELECT word FROM chat_blocked_words WHERE show_id = ? ORDER BY word').bind(showId).all<{ word: string }>();
  return results.map((r) => r.word);
}

/** Replaces the show's word list in one batch (parallel saves: the last one stands whole). */
export async function replaceBlockedWords(db: D1Database, showId: number, words: string[]): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM chat_blocked_words WHERE show_id = ?').bind(showId),
    ...words.map((w) => db.prepare('INSERT INTO chat_blocked_words (show_id, word) VALUES (?, ?) ON CONFLICT DO NOTHING').bind(showId, w)),
  ]);
}

/** The user ids of the show's moderators. */
export async function moderatorIds(db: D1Database, showId: number): Promise<number[]> {
  const { results } = await db.prepare('SELECT user_id FROM show_moderators WHERE show_id = ?').bind(showId).all<{ user_id: number }>();
  return results.map((r) => r.user_id);
}

/** The show's regulars, newest first, with the nickname of their latest session and whether they moderate. */
export async function regularsOf(db: D1Database, showId: number, limit = 100): Promise<{ id: number; nick: string; moderator: boolean }[]> {
  const { results } = await db
    .prepare(
      `SELECT c.user_id AS id, c.nick AS nick, MAX(c.created_at) AS last,
         EXISTS (SELECT 1 FROM show_moderators m WHERE m.show_id = c.show_id AND m.user_id = c.user_id) AS moderator
       FROM chat_sessions c
       WHERE c.show_id = ? AND c.user_id IS NOT NULL AND c.started_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM performers p WHERE p.user_id = c.user_id AND p.show_id = c.show_id)
       GROUP BY c.user_id ORDER BY last DESC LIMIT ?`,
    )
    .bind(showId, limit)
    .all<{ id: number; nick: string; moderator: number }>();
  return results.map((r) => ({ id: r.id, nick: r.nick, moderator: r.moderator === 1 }));
}

/** The show's moderators with the nickname of their latest session there. */
export async function moderatorsOf(db: D1Database, showId: number): Promise<{ id: number; nick: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT m.user_id AS id, COALESCE((SELECT c.nick FROM chat_sessions c WHERE c.show_id = m.show_id AND c.user_id = m.user_id ORDER BY c.created_at DESC LIMIT 1), '') AS nick
       FROM show_moderators m WHERE m.show_id = ? ORDER BY m.created_at, m.user_id`,
    )
    .bind(showId)
    .all<{ id: number; nick: string }>();
  return results;
}

/**
 * Appoints a regular in one conditional INSERT (a regular, under the cap, even with parallel
 * calls): 'added', 'exists', 'not_regular' or 'too_many'.
 */
export async function addModerator(db: D1Database, showId: number, userId: number, now: number): Promise<'added' | 'exists' | 'not_regular' | 'too_many'> {
  const res = await db
    .prepare(
      `INSERT INTO show_moderators (show_id, user_id, created_at)
       SELECT ?1, ?2, ?3
       WHERE EXISTS (SELECT 1 FROM chat_sessions c WHERE c.show_id = ?1 AND c.user_id = ?2 AND c.started_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM performers p WHERE p.user_id = ?2 AND p.show_id = ?1)
         AND (SELECT COUNT(*) FROM show_moderators WHERE show_id = ?1) < ?4
       ON CONFLICT DO NOTHING`,
    )
    .bind(showId, userId, now, MODERATORS_MAX)
    .run();
  if (res.meta.changes > 0) return 'added';
  const has = await db.prepare('SELECT 1 AS x FROM show_moderators WHERE show_id = ? AND user_id = ?').bind(showId, userId).first();
  if (has) return 'exists';
  const regular = (await regularsOf(db, showId, 10_000)).some((r) => r.id === userId);
  return regular ? 'too_many' : 'not_regular';
}

/** Removes a moderator: true when there was one. */
export async function removeModerator(db: D1Database, showId: number, userId: number): Promise<boolean> {
  const res = await db.prepare('DELETE FROM show_moderators WHERE show_id = ? AND user_id = ?').bind(showId, userId).run();
  return res.meta.changes > 0;
}
