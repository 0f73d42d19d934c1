import type { Locale } from '../../../shared/constants';
import { reviewedFor, tileColumns, type GalleryListRow, type VideoListRow } from './store.repo';

// One item of the store: a video or gallery with what its page shows (parts, tags, pictures, the
// member's rating), and whether one is published. Only published items are ever found, and
// unapproved ones only by their performer and operators (reviewedFor).

export interface VideoDetailRow extends VideoListRow {
  views: number;
  rating_votes: number;
  my_rating: number | null;
  poster_key: string | null;
}
export interface PartRow {
  part: number;
  duration_s: number;
  mime: string;
}
export interface TagRow {
  slug: string;
  name: string;
}

/** A published video by id or ccid, with its parts and tags (one round trip). */
export async function findVideo(db: D1Database, ref: { id: number } | { ccid: string }, locale: Locale, userId: number | null, seer = 0) {
  const match = 'id' in ref ? 'm.id = ?2' : 'm.ccid = ?2';
  const key = 'id' in ref ? ref.id : ref.ccid;
  const name = locale === 'de' ? 't.name_de' : 't.name_en';
  const [video, parts, tags] = await db.batch([
    db
      .prepare(
        `SELECT ${tileColumns('video')}, m.views, m.rating_votes, m.poster_key,
           (SELECT r.stars FROM media_ratings r WHERE r.user_id = ?1 AND r.kind = 'video' AND r.item_id = m.id) AS my_rating
         FROM videos m JOIN shows s ON s.id = m.show_id WHERE ${match} AND m.status = 'published' AND ${reviewedFor('m', '?3')}`,
      )
      .bind(userId, key, seer),
    db.prepare(`SELECT p.part, p.duration_s, p.mime FROM video_parts p JOIN videos m ON m.id = p.video_id WHERE ${match.replace('?2', '?1')} ORDER BY p.part`).bind(key),
    db
      .prepare(`SELECT t.slug, ${name} AS name FROM video_tags vt JOIN tags t ON t.id = vt.tag_id JOIN videos m ON m.id = vt.video_id WHERE ${match.replace('?2', '?1')} ORDER BY t.id`)
      .bind(key),
  ]);
  const row = video.results[0] as VideoDetailRow | undefined;
  if (!row) return null;
  return { row, parts: parts.results as PartRow[], tags: tags.results as TagRow[] };
}

export interface GalleryDetailRow extends GalleryListRow {
  rating_votes: number;
  my_rating: number | null;
}
export interface PictureRow {
  idx: number;
  width: number;
  height: number;
}

/** A published gallery of a show, with its pictures (one round trip). */
export async function findGallery(db: D1Database, showId: number, id: number, userId: number | null, seer = 0) {
  const [gallery, pictures] = await db.batch([
    db
      .prepare(
        `SELECT ${tileColumns('gallery')}, m.rating_votes,
           (SELECT r.stars FROM media_ratings r WHERE r.user_id = ?1 AND r.kind = 'gallery' AND r.item_id = m.id) AS my_rating
         FROM galleries m JOIN shows s ON s.id = m.show_id WHERE m.id = ?2 AND m.show_id = ?3 AND m.status = 'published' AND ${reviewedFor('m', '?4')}`,
      )
      .bind(userId, id, showId, seer),
    db.prepare('SELECT idx, width, height FROM gallery_pictures WHERE gallery_id = ? ORDER BY idx').bind(id),
  ]);
  const row = gallery.results[0] as GalleryDetailRow | undefined;
  if (!row) return null;
  return { row, pictures: pictures.results as PictureRow[] };
}

/** The id of a published video by its ccid, else null. */
export async function videoIdByCcid(db: D1Database, ccid: string): Promise<number | null> {
  return (await db.prepare("SELECT id FROM videos WHERE ccid = ? AND status = 'published' AND review = 'approved'").bind(ccid).first<{ id: number }>())?.id ?? null;
}

/** Whether a published gallery exists. */
export async function galleryExists(db: D1Database, id: number): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS x FROM galleries WHERE id = ? AND status = 'published' AND review = 'approved'").bind(id).first()) !== null;
}
