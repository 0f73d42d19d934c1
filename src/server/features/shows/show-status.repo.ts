import type { Locale } from '../../../shared/constants';
import type { ShowSummary } from '../../../shared/shows';
import { SHOW_COLUMNS, toShowSummary, type ShowRow } from './shows.repo';
import { nowSeconds } from '../../lib/clock';

/** The ids of every show live now (what a reconnecting page refetches). */
export async function onlineShowIds(db: D1Database, hidden: readonly number[] = []): Promise<number[]> {
  const { results } = await db
    .prepare('SELECT id FROM shows WHERE online = 1 AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id')
    .bind(JSON.stringify(hidden))
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** The shows that have been live longest right now. */
export async function longestOnline(db: D1Database, limit: number, locale: Locale, hidden: readonly number[] = []): Promise<ShowSummary[]> {
  const { results } = await db
    .prepare(`SELECT ${SHOW_COLUMNS} FROM shows s WHERE s.online = 1 AND s.id NOT IN (SELECT value FROM json_each(?)) ORDER BY s.online_since, s.id LIMIT ?`)
    .bind(JSON.stringify(hidden), limit)
    .all<ShowRow>();
  return results.map((r) => toShowSummary(r, locale));
}

export function findShowSlug(db: D1Database, id: number) {
  return db.prepare('SELECT id, slug_name AS slugName FROM shows WHERE id = ?').bind(id).first<{ id: number; slugName: string }>();
}

export interface StatusChange {
  id: number;
  online: boolean;
}

const statusStatement = (db: D1Database, c: StatusChange, now: number) =>
  db.prepare('UPDATE shows SET online = ?, online_since = ? WHERE id = ? RETURNING id').bind(c.online ? 1 : 0, c.online ? now : null, c.id);

/** Sets shows online or offline (online_since is when they went live); answers the ids that exist. */
export async function setShowsOnline(db: D1Database, changes: StatusChange[], now = nowSeconds()): Promise<number[]> {
  if (changes.length === 0) return [];
  const results = await db.batch<{ id: number }>(changes.map((c) => statusStatement(db, c, now)));
  return results.flatMap((r) => r.results.map((row) => row.id));
}

/** A few shows picked at random with their status (the lobby simulator flips them). */
export async function randomShows(db: D1Database, count: number): Promise<StatusChange[]> {
  // Shows someone is chatting with are left alone (the simulator never ends a real chat).
  const { results } = await db
    .prepare("SELECT id, online FROM shows s WHERE NOT EXISTS (SELECT 1 FROM chat_sessions c WHERE c.show_id = s.id AND c.state <> 'ended') ORDER BY RANDOM() LIMIT ?")
    .bind(count)
    .all<{ id: number; online: number }>();
  return results.map((r) => ({ id: r.id, online: r.online === 1 }));
}
