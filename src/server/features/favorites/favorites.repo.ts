import { FAVORITES_MAX, type Favorite, type FavoriteInfoType } from '../../../shared/favorites';

interface FavoriteRow {
  show_id: number;
  universal_id: string;
  contentprovider_id: number;
  name: string;
  slug_name: string;
  online: number;
  info_type: FavoriteInfoType;
  info_start: number | null;
  info_end: number | null;
}

const COLUMNS = 'f.show_id, s.universal_id, s.contentprovider_id, s.name, s.slug_name, s.online, f.info_type, f.info_start, f.info_end';

function toFavorite(r: FavoriteRow): Favorite {
  return {
    id: r.show_id,
    universalId: r.universal_id,
    show_id: r.show_id,
    contentprovider_id: r.contentprovider_id,
    name: r.name,
    slugName: r.slug_name,
    online: r.online === 1,
    info_type: r.info_type,
    info_start: r.info_start,
    info_end: r.info_end,
  };
}

/** The member's favourites, online ones first, then by name. */
export async function listFavorites(db: D1Database, userId: number): Promise<Favorite[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM favorites f JOIN shows s ON s.id = f.show_id WHERE f.user_id = ? ORDER BY s.online DESC, s.name COLLATE NOCASE, s.id`)
    .bind(userId)
    .all<FavoriteRow>();
  return results.map(toFavorite);
}

/** One favourite of THIS member (another member's is never found). */
export async function getFavorite(db: D1Database, userId: number, showId: number): Promise<Favorite | null> {
  const r = await db.prepare(`SELECT ${COLUMNS} FROM favorites f JOIN shows s ON s.id = f.show_id WHERE f.user_id = ? AND f.show_id = ?`).bind(userId, showId).first<FavoriteRow>();
  return r ? toFavorite(r) : null;
}

/** The ids of the member's favourite shows (one query; marks isFavorite in show lists). */
export async function favoriteIds(db: D1Database, userId: number): Promise<number[]> {
  const { results } = await db.prepare('SELECT show_id FROM favorites WHERE user_id = ?').bind(userId).all<{ show_id: number }>();
  return results.map((r) => r.show_id);
}

export interface Window {
  type: FavoriteInfoType;
  start: number | null;
  end: number | null;
}

export type CreateResult = 'created' | 'exists' | 'no_show' | 'limit';

/**
 * Adds a favourite. The member's limit is part of the INSERT itself (a burst cannot pass a count
 * read before), and the show must exist. Answers what happened.
 */
export async function createFavorite(db: D1Database, userId: number, showId: number, w: Window, now: number): Promise<CreateResult> {
  const [ins, probe] = await db.batch([
    db
      .prepare(
        `INSERT INTO favorites (user_id, show_id, info_type, info_start, info_end, created_at)
         SELECT ?1, s.id, ?3, ?4, ?5, ?6 FROM shows s
         WHERE s.id = ?2 AND (SELECT COUNT(*) FROM favorites WHERE user_id = ?1) < ?7
         ON CONFLICT (user_id, show_id) DO NOTHING RETURNING show_id`,
      )
      .bind(userId, showId, w.type, w.start, w.end, now, FAVORITES_MAX),
    db.prepare('SELECT (SELECT COUNT(*) FROM shows WHERE id = ?2) AS show, (SELECT COUNT(*) FROM favorites WHERE user_id = ?1 AND show_id = ?2) AS mine').bind(userId, showId),
  ]);
  if (ins.results.length === 1) return 'created';
  const p = probe.results[0] as { show: number; mine: number };
  if (p.show === 0) return 'no_show';
  return p.mine === 1 ? 'exists' : 'limit';
}

/** Sets the window of the member's own favourite; false when it is not theirs (or not there). */
export async function updateFavorite(db: D1Database, userId: number, showId: number, w: Window): Promise<boolean> {
  const r = await db
    .prepare('UPDATE favorites SET info_type = ?, info_start = ?, info_end = ? WHERE user_id = ? AND show_id = ? RETURNING show_id')
    .bind(w.type, w.start, w.end, userId, showId)
    .all();
  return r.results.length === 1;
}

export async function deleteFavorite(db: D1Database, userId: number, showId: number): Promise<boolean> {
  const r = await db.prepare('DELETE FROM favorites WHERE user_id = ? AND show_id = ? RETURNING show_id').bind(userId, showId).all();
  return r.results.length === 1;
}

export interface Notice {
  user_id: number;
  show_id: number;
  email: string;
  user_name: string;
  locale: string;
  show_name: string;
  slug_name: string;
  /** 1 when the show is hidden from the member's last known place (geo-blocking): no push, no mail. */
  place_hidden: number;
}

/**
 * Claims the notices for shows that just went online: one row per member, show and window
 * (UNIQUE), for every favourite whose window holds `now` (UTC). INSERT OR IGNORE ... RETURNING
 * answers only the rows this call inserted, so of parallel calls exactly one gets each notice.
 * A window wrapping past midnight belongs to the day it opened.
 */
export async function claimNotices(db: D1Database, showIds: number[], nowMs: number): Promise<Notice[]> {
  if (showIds.length === 0) return [];
  const now = Math.floor(nowMs / 1000);
  const day = Math.floor(now / 86_400);
  const minute = Math.floor((now % 86_400) / 60);
  const claimed = await db
    .prepare(
      `INSERT OR IGNORE INTO favorite_notices (user_id, show_id, window_day, window_start, created_at)
       SELECT f.user_id, f.show_id,
         ?2 - (CASE WHEN f.info_type = 'timespan' AND f.info_start > f.info_end AND ?3 < f.info_end THEN 1 ELSE 0 END),
         COALESCE(f.info_start, 0), ?4
       FROM favorites f JOIN shows s ON s.id = f.show_id JOIN users u ON u.id = f.user_id
       WHERE f.show_id IN (SELECT value FROM json_each(?1)) AND f.info_type IS NOT NULL AND s.online = 1 AND u.blocked = 0
         AND (f.info_type = 'daily'
           OR (f.info_start < f.info_end AND ?3 >= f.info_start AND ?3 < f.info_end)
           OR (f.info_start > f.info_end AND (?3 >= f.info_start OR ?3 < f.info_end)))
       RETURNING id`,
    )
    .bind(JSON.stringify(showIds), day, minute, now)
    .all<{ id: number }>();
  if (claimed.results.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT n.user_id, n.show_id, u.email, u.name AS user_name, u.locale, s.name AS show_name, s.slug_name,
         EXISTS (SELECT 1 FROM show_geo_blocks g WHERE g.show_id = n.show_id AND g.code IN (u.geo_country, u.geo_region)) AS place_hidden
       FROM favorite_notices n JOIN users u ON u.id = n.user_id JOIN shows s ON s.id = n.show_id
       WHERE n.id IN (SELECT value FROM json_each(?))`,
    )
    .bind(JSON.stringify(claimed.results.map((r) => r.id)))
    .all<Notice>();
  return results;
}
