import { reviewedFor, type Kind } from './store.repo';

// What a member owns, rates and watches (issue 13): purchases, prizes used for them, ratings,
// views, and the archive. Writes that must hold together share one batch.

/** What buying needs to know of an item. */
export interface Buyable {
  id: number;
  show_id: number;
  price: number;
  /** The requested part exists (videos; always 1 for galleries). */
  has_part: number;
  owned: number;
}

/** A published video by ccid with its price, whether `part` exists and whether the member owns it. */
export function findBuyableVideo(db: D1Database, ccid: string, part: number, userId: number | null): Promise<Buyable | null> {
  return db
    .prepare(
      `SELECT v.id, v.show_id, v.price,
         EXISTS (SELECT 1 FROM video_parts p WHERE p.video_id = v.id AND p.part = ?2) AS has_part,
         (v.price = 0 AND ?3 IS NOT NULL) OR EXISTS (SELECT 1 FROM purchases u WHERE u.user_id = ?3 AND u.kind = 'video' AND u.item_id = v.id) AS owned
       FROM videos v WHERE v.ccid = ?1 AND v.status = 'published' AND v.review = 'approved'`,
    )
    .bind(ccid, part, userId)
    .first<Buyable>();
}

/** A published gallery of a show with its price and whether the member owns it. */
export function findBuyableGallery(db: D1Database, showId: number, id: number, userId: number | null): Promise<Buyable | null> {
  return db
    .prepare(
      `SELECT g.id, g.show_id, g.price, 1 AS has_part,
         (g.price = 0 AND ?3 IS NOT NULL) OR EXISTS (SELECT 1 FROM purchases u WHERE u.user_id = ?3 AND u.kind = 'gallery' AND u.item_id = g.id) AS owned
       FROM galleries g WHERE g.id = ?1 AND g.show_id = ?2 AND g.status = 'published' AND g.review = 'approved'`,
    )
    .bind(id, showId, userId)
    .first<Buyable>();
}

/** The purchase row of a coin purchase (its UNIQUE makes a second purchase abort the batch). */
export function purchaseStatement(db: D1Database, userId: number, kind: Kind, item: Buyable, now: number): D1PreparedStatement {
  return db
    .prepare('INSERT INTO purchases (user_id, kind, item_id, show_id, coins, coupon_code, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)')
    .bind(userId, kind, item.id, item.show_id, item.price, now);
}

/** The oldest-expiring unused, valid prize of this type the member holds, else null. */
export async function findPrize(db: D1Database, userId: number, type: 'VIDEO' | 'GALLERY', now: number): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT uc.code FROM user_coupons uc JOIN coupons c ON c.code = uc.code
       WHERE uc.user_id = ? AND uc.used_at IS NULL AND c.type = ? AND c.valid_until > ?
       ORDER BY c.valid_until, uc.redeemed_at, uc.code LIMIT 1`,
    )
    .bind(userId, type, now)
    .first<{ code: string }>();
  return row?.code ?? null;
}

/**
 * Uses the prize `code` for the item: the coupon's used_at is set only while it is unused, and the
 * purchase row is written only when that update changed the row (changes() = 1), in one batch. A
 * prize another request used first writes nothing (answers false); an item already owned makes
 * the purchase's UNIQUE abort the whole batch (the prize stays unused).
 */
export async function usePrize(db: D1Database, userId: number, kind: Kind, item: Buyable, code: string, now: number): Promise<boolean> {
  const [, insert] = await db.batch([
    db.prepare('UPDATE user_coupons SET used_at = ? WHERE user_id = ? AND code = ? AND used_at IS NULL').bind(now, userId, code),
    db
      .prepare('INSERT INTO purchases (user_id, kind, item_id, show_id, coins, coupon_code, created_at) SELECT ?, ?, ?, ?, 0, ?, ? WHERE changes() = 1')
      .bind(userId, kind, item.id, item.show_id, code, now),
  ]);
  return insert.meta.changes === 1;
}

/** The member's coins now. */
export async function memberCoins(db: D1Database, userId: number): Promise<number> {
  return (await db.prepare('SELECT coins FROM users WHERE id = ?').bind(userId).first<{ coins: number }>())?.coins ?? 0;
}

/** A published gallery's show and price (GET galleries/free/{id} knows only the gallery). */
export function galleryShowPrice(db: D1Database, id: number): Promise<{ show_id: number; price: number } | null> {
  return db.prepare("SELECT show_id, price FROM galleries WHERE id = ? AND status = 'published' AND review = 'approved'").bind(id).first<{ show_id: number; price: number }>();
}

/** Whether the member owns the item now (a purchase row). */
export async function hasPurchase(db: D1Database, userId: number, kind: Kind, itemId: number): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS x FROM purchases WHERE user_id = ? AND kind = ? AND item_id = ?').bind(userId, kind, itemId).first()) !== null;
}

/**
 * Rates an item 1-5 stars: the member's earlier rating is replaced. The item's rating (0-100, the
 * seeded rating counting as `rating_votes` votes) moves by the difference, in the same batch.
 */
export async function rateItem(db: D1Database, userId: number, kind: Kind, itemId: number, stars: number, now: number): Promise<{ rating: number; rating_votes: number }> {
  const table = kind === 'video' ? 'videos' : 'galleries';
  const old = `(SELECT r.stars * 20 FROM media_ratings r WHERE r.user_id = ?2 AND r.kind = '${kind}' AND r.item_id = ?3)`;
  const [, , after] = await db.batch([
    db
      .prepare(
        `UPDATE ${table} SET
           rating = MIN(100, MAX(0, CAST(ROUND((rating * rating_votes - COALESCE(${old}, 0) + ?1 * 20) * 1.0 / (rating_votes + (${old} IS NULL))) AS INTEGER))),
           rating_votes = rating_votes + (${old} IS NULL)
         WHERE id = ?3`,
      )
      .bind(stars, userId, itemId),
    db
      .prepare('INSERT INTO media_ratings (user_id, kind, item_id, stars, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET stars = excluded.stars, created_at = excluded.created_at')
      .bind(userId, kind, itemId, stars, now),
    db.prepare(`SELECT rating, rating_votes FROM ${table} WHERE id = ?`).bind(itemId),
  ]);
  return after.results[0] as { rating: number; rating_votes: number };
}

/** Counts a view once per viewer and day; answers the views and whether this one counted. */
export async function countView(db: D1Database, videoId: number, viewer: string | null, day: number): Promise<{ views: number; counted: boolean }> {
  if (viewer === null) {
    const row = await db.prepare('SELECT views FROM videos WHERE id = ?').bind(videoId).first<{ views: number }>();
    return { views: row?.views ?? 0, counted: false };
  }
  const [insert, , after] = await db.batch([
    db.prepare('INSERT INTO video_views (video_id, viewer, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').bind(videoId, viewer, day),
    db.prepare('UPDATE videos SET views = views + 1 WHERE id = ? AND changes() = 1').bind(videoId),
    db.prepare('SELECT views FROM videos WHERE id = ?').bind(videoId),
  ]);
  return { views: (after.results[0] as { views: number }).views, counted: insert.meta.changes === 1 };
}

// ---------------------------------------------------------------------------------------------
// Media: what the stream needs of a part or picture, and whether this member may have it.

export interface MediaObject {
  key: string;
  mime: string;
  price: number;
  owned: number;
  /** Seconds (parts only). */
  duration_s?: number;
}

/** A part's whole file (`full`) or preview, with the member's ownership; none of a `hidden` show (geo-blocking). */
export function findPartObject(
  db: D1Database,
  videoId: number,
  part: number,
  which: 'full' | 'preview',
  userId: number | null,
  seer = 0,
  hidden: readonly number[] = [],
): Promise<MediaObject | null> {
  return db
    .prepare(
      `SELECT ${which === 'full' ? 'p.media_key' : 'p.preview_key'} AS key, p.mime, p.duration_s, v.price,
         (v.price = 0 AND ?3 IS NOT NULL) OR EXISTS (SELECT 1 FROM purchases u WHERE u.user_id = ?3 AND u.kind = 'video' AND u.item_id = v.id) OR ?4 = -1 OR v.show_id = ?4 AS owned
       FROM video_parts p JOIN videos v ON v.id = p.video_id WHERE p.video_id = ?1 AND p.part = ?2 AND v.status = 'published' AND ${reviewedFor('v', '?4')}
         AND v.show_id NOT IN (SELECT value FROM json_each(?5))`,
    )
    .bind(videoId, part, userId, seer, JSON.stringify(hidden))
    .first<MediaObject>();
}

/** A video's uploaded poster key: undefined when there is no such video (or its show is `hidden`), null without a poster. */
export async function findPosterKey(db: D1Database, videoId: number, seer = 0, hidden: readonly number[] = []): Promise<string | null | undefined> {
  const row = await db
    .prepare(`SELECT poster_key FROM videos v WHERE id = ?1 AND status = 'published' AND ${reviewedFor('v', '?2')} AND v.show_id NOT IN (SELECT value FROM json_each(?3))`)
    .bind(videoId, seer, JSON.stringify(hidden))
    .first<{ poster_key: string | null }>();
  return row ? row.poster_key : undefined;
}

/** A gallery picture in one size, with the member's ownership (free galleries: owned by everyone); none of a `hidden` show. */
export function findPictureObject(
  db: D1Database,
  galleryId: number,
  idx: number,
  size: 'full' | 'thumb',
  userId: number | null,
  seer = 0,
  hidden: readonly number[] = [],
): Promise<MediaObject | null> {
  return db
    .prepare(
      `SELECT ${size === 'full' ? 'p.full_key' : 'p.thumb_key'} AS key, p.mime, g.price,
         g.price = 0 OR EXISTS (SELECT 1 FROM purchases u WHERE u.user_id = ?3 AND u.kind = 'gallery' AND u.item_id = g.id) OR ?4 = -1 OR g.show_id = ?4 AS owned
       FROM gallery_pictures p JOIN galleries g ON g.id = p.gallery_id WHERE p.gallery_id = ?1 AND p.idx = ?2 AND g.status = 'published' AND ${reviewedFor('g', '?4')}
         AND g.show_id NOT IN (SELECT value FROM json_each(?5))`,
    )
    .bind(galleryId, idx, userId, seer, JSON.stringify(hidden))
    .first<MediaObject>();
}
