import type { EndReason, OpenTypes, SessionState, SessionType } from '../../../shared/chat';
import type { ChatShowRow } from './chat-rules';
import { isUniqueViolation } from '../../lib/errors';
import type { GuardedStatement } from '../../lib/ledger-many.repo';

export type { ChatShowRow };

// All SQL of live rooms: performers, the studio switches on the show row, chat sessions and
// their billing record, bans, the free-chat allowance, ratings and the member's history.


const SHOW_SQL = `SELECT id, universal_id, contentprovider_id, name, slug_name, online, online_since, paused, open_free, open_private,
  open_exclusive, open_voyeur, price_per_minute, price_factor_exclusive, flag_free, flag_exclusive FROM shows`;

export function showByUniversalId(db: D1Database, universalId: string) {
  return db.prepare(`${SHOW_SQL} WHERE universal_id = ?`).bind(universalId).first<ChatShowRow>();
}

export function showById(db: D1Database, id: number) {
  return db.prepare(`${SHOW_SQL} WHERE id = ?`).bind(id).first<ChatShowRow>();
}

export function openTypesOf(r: ChatShowRow): OpenTypes {
  return { free: r.open_free === 1, private: r.open_private === 1, exclusive: r.open_exclusive === 1, voyeur: r.open_voyeur === 1 };
}

/** The show a member performs in, or null. */
export async function performerShow(db: D1Database, userId: number): Promise<number | null> {
  return (await db.prepare('SELECT show_id FROM performers WHERE user_id = ?').bind(userId).first<{ show_id: number }>())?.show_id ?? null;
}

export interface StatusFields {
  online?: boolean;
  paused?: boolean;
  open?: Partial<OpenTypes>;
}

/** Changes the studio switches; online_since is set when the show goes live. Answers the row. */
export function updateShowStatus(db: D1Database, showId: number, f: StatusFields, now: number) {
  const b = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);
  return db
    .prepare(
      `UPDATE shows SET
         online_since = CASE WHEN ?1 IS NULL THEN online_since WHEN ?1 = 1 THEN (CASE WHEN online = 1 THEN online_since ELSE ?8 END) ELSE NULL END,
         online = COALESCE(?1, online), paused = COALESCE(?2, paused),
         open_free = COALESCE(?3, open_free), open_private = COALESCE(?4, open_private),
         open_exclusive = COALESCE(?5, open_exclusive), open_voyeur = COALESCE(?6, open_voyeur)
       WHERE id = ?7 RETURNING id`,
    )
    .bind(b(f.online), b(f.paused), b(f.open?.free), b(f.open?.private), b(f.open?.exclusive), b(f.open?.voyeur), showId, now)
    .first<{ id: number }>();
}

export async function isBanned(db: D1Database, showId: number, who: string[]): Promise<boolean> {
  if (who.length === 0) return false;
  const row = await db
    .prepare(`SELECT 1 AS x FROM chat_bans WHERE show_id = ? AND who IN (${who.map(() => '?').join(', ')}) LIMIT 1`)
    .bind(showId, ...who)
    .first();
  return !!row;
}

export async function addBans(db: D1Database, showId: number, who: string[], now: number): Promise<void> {
  if (who.length === 0) return;
  await db.batch(who.map((w) => db.prepare('INSERT INTO chat_bans (show_id, who, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').bind(showId, w, now)));
}

/**
 * Reserves one free-chat minute of `who` for `day` (UTC day number) unless `limit` are used:
 * one conditional UPSERT, so a burst cannot walk past the limit. True when reserved.
 */
export async function reserveFreeMinute(db: D1Database, who: string, day: number, limit: number): Promise<boolean> {
  if (limit <= 0) return false;
  return !!(await db.prepare(RESERVE_FREE).bind(who, day, limit).first<{ minutes: number }>());
}

const RESERVE_FREE = `INSERT INTO free_chat_usage (who, day, minutes) VALUES (?1, ?2, 1)
  ON CONFLICT (who, day) DO UPDATE SET minutes = minutes + 1 WHERE minutes < ?3
  RETURNING minutes`;
/** Statements per D1 batch of a room's minute tick. */
const MINUTES_PER_BATCH = 100;

/** Up to `chunk` minutes of each visitor's daily allowance (a room's tick), in D1 batches: how many each got (0: spent). Read and upsert share a batch, so the grant is exact. */
export async function reserveFreeChunks(db: D1Database, who: string[], day: number, limit: number, chunk: number): Promise<number[]> {
  const out: number[] = [];
  if (limit <= 0) return who.map(() => 0);
  const per = MINUTES_PER_BATCH / 2;
  for (let i = 0; i < who.length; i += per) {
    const part = who.slice(i, i + per);
    const results = await db.batch(
      part.flatMap((w) => [
        db.prepare('SELECT minutes FROM free_chat_usage WHERE who = ?1 AND day = ?2').bind(w, day),
        db.prepare(RESERVE_FREE_CHUNK).bind(w, day, limit, chunk),
      ]),
    );
    for (let k = 0; k < part.length; k++) {
      const before = (results[2 * k].results[0] as { minutes: number } | undefined)?.minutes ?? 0;
      const after = (results[2 * k + 1].results[0] as { minutes: number } | undefined)?.minutes;
      out.push(after === undefined ? 0 : after - before);
    }
  }
  return out;
}

const RESERVE_FREE_CHUNK = `INSERT INTO free_chat_usage (who, day, minutes) VALUES (?1, ?2, MIN(?4, ?3))
  ON CONFLICT (who, day) DO UPDATE SET minutes = MIN(minutes + ?4, ?3) WHERE minutes < ?3
  RETURNING minutes`;

/** Minutes a session reserved and did not use go back to the visitor's allowance of that day. */
export function releaseFreeMinutes(db: D1Database, who: string, day: number, minutes: number) {
  return db.prepare('UPDATE free_chat_usage SET minutes = MAX(0, minutes - ?3) WHERE who = ?1 AND day = ?2').bind(who, day, minutes).run();
}

export interface ChatSessionRow {
  id: string;
  show_id: number;
  user_id: number | null;
  visitor: string;
  nick: string;
  type: SessionType;
  state: SessionState;
  price: number;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  end_reason: EndReason | null;
  minutes: number;
  coins: number;
  tips: number;
  rating: number | null;
  /** Voice-call session: the phone billing whose call paid for the time (null: paid in coins). */
  phone_billing_id: number | null;
}

/** Inserts a session; false when the show already has a private or exclusive one (unique index). */
export async function insertSession(db: D1Database, s: Omit<ChatSessionRow, 'ended_at' | 'end_reason' | 'coins' | 'tips' | 'rating'>): Promise<boolean> {
  try {
    await db
      .prepare('INSERT INTO chat_sessions (id, show_id, user_id, visitor, nick, type, state, price, created_at, started_at, minutes, phone_billing_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(s.id, s.show_id, s.user_id, s.visitor, s.nick, s.type, s.state, s.price, s.created_at, s.started_at, s.minutes, s.phone_billing_id)
      .run();
    return true;
  } catch (e) {
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

/** The running private or exclusive session of a show (pending or active), if any. */
export function privateInUse(db: D1Database, showId: number) {
  return db.prepare("SELECT type FROM chat_sessions WHERE show_id = ? AND type IN ('private', 'exclusive') AND state <> 'ended'").bind(showId).first<{ type: SessionType }>();
}

/** When the member's last unanswered request on the show (declined or timed out) ended, since `since` (unix ms). */
export async function lastUnansweredRequest(db: D1Database, showId: number, userId: number, since: number): Promise<number | null> {
  const row = await db
    .prepare(
      "SELECT MAX(ended_at) AS at FROM chat_sessions WHERE show_id = ? AND user_id = ? AND type IN ('private', 'exclusive') AND started_at IS NULL AND end_reason IN ('declined', 'timeout') AND ended_at > ?",
    )
    .bind(showId, userId, since)
    .first<{ at: number | null }>();
  return row?.at ?? null;
}

export function findSession(db: D1Database, id: string) {
  return db.prepare('SELECT * FROM chat_sessions WHERE id = ?').bind(id).first<ChatSessionRow>();
}

export function startSession(db: D1Database, id: string, startedAt: number) {
  return db.prepare("UPDATE chat_sessions SET state = 'active', started_at = ? WHERE id = ? AND state = 'pending' RETURNING id").bind(startedAt, id).first<{ id: string }>();
}

/** Ends a session once; answers the row when this call ended it. */
/** Ends a session's row; `minutes`: the room's count (free minutes are written in chunks, the last ones here). */
export function endSessionRow(db: D1Database, id: string, reason: EndReason, now: number, minutes = 0) {
  return db
    .prepare("UPDATE chat_sessions SET state = 'ended', ended_at = ?, end_reason = ?, minutes = MAX(minutes, ?) WHERE id = ? AND state <> 'ended' RETURNING *")
    .bind(now, reason, minutes, id)
    .first<ChatSessionRow>();
}

const CHARGED_MINUTE = 'UPDATE chat_sessions SET minutes = MAX(minutes, ?), coins = coins + ? WHERE id = ?';

/** The billing record of a charged minute; shares the batch (and fate) of its ledger row. */
export function chargedMinuteStatement(db: D1Database, id: string, minute: number, coins: number) {
  return db.prepare(CHARGED_MINUTE).bind(minute, coins, id);
}

/** Free sessions' minute counts (no coins), in batches. */
export async function recordMinutes(db: D1Database, items: { id: string; minute: number }[]): Promise<void> {
  for (let i = 0; i < items.length; i += MINUTES_PER_BATCH) await db.batch(items.slice(i, i + MINUTES_PER_BATCH).map((x) => chargedMinuteStatement(db, x.id, x.minute, 0)));
}

/** The same, written only together with its payment (spendMany). */
export const chargedMinuteAlongside = (id: string, minute: number, coins: number): GuardedStatement => ({ sql: CHARGED_MINUTE, params: [minute, coins, id] });

export function tipStatement(db: D1Database, id: string, coins: number) {
  return db.prepare('UPDATE chat_sessions SET tips = tips + ? WHERE id = ?').bind(coins, id);
}

/** The member's latest ended private or exclusive session of a show. */
export function latestRateable(db: D1Database, userId: number, showId: number) {
  return db
    .prepare("SELECT * FROM chat_sessions WHERE user_id = ? AND show_id = ? AND type IN ('private', 'exclusive') AND state = 'ended' AND started_at IS NOT NULL ORDER BY ended_at DESC, created_at DESC LIMIT 1")
    .bind(userId, showId)
    .first<ChatSessionRow>();
}

/**
 * Rates a session once (its member, ended, private or exclusive, started) and counts the rating
 * into the show's running mean, in one transaction: the show is updated only while the session
 * is unrated, so a repeated or parallel rating changes nothing. True when this call rated it.
 */
export async function rateSession(db: D1Database, id: string, userId: number, showId: number, rating: number, comment: string, now: number): Promise<boolean> {
  const cond = "id = ?1 AND user_id = ?2 AND show_id = ?3 AND state = 'ended' AND started_at IS NOT NULL AND rating IS NULL AND type IN ('private', 'exclusive')";
  const [, upd] = await db.batch([
    db
      .prepare(
        `UPDATE shows SET rating = CAST(ROUND((rating * rating_count + ?4) * 1.0 / (rating_count + 1)) AS INTEGER), rating_count = rating_count + 1
         WHERE id = ?3 AND EXISTS (SELECT 1 FROM chat_sessions WHERE ${cond})`,
      )
      .bind(id, userId, showId, rating),
    db.prepare(`UPDATE chat_sessions SET rating = ?4, rating_comment = ?5, rated_at = ?6 WHERE ${cond}`).bind(id, userId, showId, rating, comment, now),
  ]);
  return (upd.meta.changes ?? 0) > 0;
}

export function showRating(db: D1Database, showId: number) {
  return db.prepare('SELECT rating, rating_count FROM shows WHERE id = ?').bind(showId).first<{ rating: number; rating_count: number }>();
}

export interface HistoryRow
  extends Pick<ChatSessionRow, 'id' | 'show_id' | 'type' | 'created_at' | 'started_at' | 'ended_at' | 'end_reason' | 'minutes' | 'coins' | 'tips'> {
  show_name: string;
  universal_id: string;
  slug_name: string;
}

export async function chatHistory(db: D1Database, userId: number, limit = 100): Promise<HistoryRow[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.show_id, s.name AS show_name, s.universal_id, s.slug_name, c.type, c.created_at, c.started_at, c.ended_at, c.end_reason, c.minutes, c.coins, c.tips
       FROM chat_sessions c JOIN shows s ON s.id = c.show_id WHERE c.user_id = ? ORDER BY c.created_at DESC LIMIT ?`,
    )
    .bind(userId, limit)
    .all<HistoryRow>();
  return results;
}
