import { UPLOAD_PENDING_MAX, UPLOAD_PENDING_WINDOW_S, type StudioGallery, type StudioVideo } from '../../../shared/uploads';

// All SQL of the studio uploads: the performer's videos and galleries, written 'pending' and
// published once their files are complete; an upload's review is 'pending' until an operator
// approves it (the store lists only published and approved ones).

const LIST_MAX = 200;

export async function listOwnUploads(db: D1Database, showId: number): Promise<{ videos: StudioVideo[]; galleries: StudioGallery[] }> {
  const [videos, galleries] = await db.batch<StudioVideo | StudioGallery>([
    db
      .prepare('SELECT id, ccid, title_en, title_de, price, duration_s AS duration, status, review, review_reason, created_at FROM videos WHERE show_id = ? ORDER BY created_at DESC, id DESC LIMIT ?')
      .bind(showId, LIST_MAX),
    db
      .prepare('SELECT id, title_en, title_de, price, picture_count, status, review, review_reason, created_at FROM galleries WHERE show_id = ? ORDER BY created_at DESC, id DESC LIMIT ?')
      .bind(showId, LIST_MAX),
  ]);
  return { videos: videos.results as StudioVideo[], galleries: galleries.results as StudioGallery[] };
}

/** The ids of the tags with these slugs (unknown slugs are missing from the answer). */
export async function tagIdsBySlug(db: D1Database, slugs: string[]): Promise<Map<string, number>> {
  if (slugs.length === 0) return new Map();
  const { results } = await db
    .prepare(`SELECT id, slug FROM tags WHERE slug IN (${slugs.map(() => '?').join(', ')})`)
    .bind(...slugs)
    .all<{ id: number; slug: string }>();
  return new Map(results.map((r) => [r.slug, r.id]));
}

export interface NewVideo {
  showId: number;
  ccid: string;
  titleEn: string;
  titleDe: string;
  price: number;
  duration: number;
  palette: number;
  tagIds: number[];
  /** The show's verified people it depicts (show_performers ids, checked before). */
  people: number[];
  now: number;
}

/** The cap on unfinished uploads, checked in the INSERT itself (one statement: exact under a burst). */
const underPendingCap = (table: 'videos' | 'galleries') =>
  `(SELECT COUNT(*) FROM ${table} WHERE show_id = ?2 AND status = 'pending' AND created_at > ?8 - ${UPLOAD_PENDING_WINDOW_S}) < ${UPLOAD_PENDING_MAX}`;

/**
 * A pending video (one part) with its tags; the part row is written when the files are complete.
 * Null when the show already has UPLOAD_PENDING_MAX unfinished videos of the last day.
 */
export async function insertPendingVideo(db: D1Database, v: NewVideo): Promise<StudioVideo | null> {
  const row = await db
    .prepare(
      `INSERT INTO videos (ccid, show_id, title_en, title_de, duration_s, parts, price, rating, palette, created_at, status, review)
       SELECT ?1, ?2, ?3, ?4, ?5, 1, ?6, 0, ?7, ?8, 'pending', 'pending' WHERE ${underPendingCap('videos')}
       RETURNING id, ccid, title_en, title_de, price, duration_s AS duration, status, review, review_reason, created_at`,
    )
    .bind(v.ccid, v.showId, v.titleEn, v.titleDe, v.duration, v.price, v.palette, v.now)
    .first<StudioVideo>();
  if (!row) return null;
  await db.batch([...v.tagIds.map((t) => db.prepare('INSERT OR IGNORE INTO video_tags (video_id, tag_id) VALUES (?, ?)').bind(row.id, t)), ...peopleOf(db, 'video', row.id, v.people)]);
  return row;
}

/** The rows naming the people an item depicts (migration 0033; a trigger refuses another show's). */
const peopleOf = (db: D1Database, kind: 'video' | 'gallery', id: number, people: number[]) =>
  people.map((p) => db.prepare('INSERT OR IGNORE INTO item_performers (kind, item_id, show_performer_id) VALUES (?, ?, ?)').bind(kind, id, p));

/** The show's video `id` if it is still pending (null: not this show's, unknown, or published). */
export function pendingVideo(db: D1Database, showId: number, id: number): Promise<StudioVideo | null> {
  return db
    .prepare("SELECT id, ccid, title_en, title_de, price, duration_s AS duration, status, review, review_reason, created_at FROM videos WHERE id = ? AND show_id = ? AND status = 'pending'")
    .bind(id, showId)
    .first<StudioVideo>();
}

/**
 * Deletes the show's pending video `id`, its tags and its search entry (a refused upload): the row
 * no longer counts among the show's unfinished uploads. A published video is never touched. The
 * search entry goes too: the next video may get the same id, and its entry is written by a trigger.
 */
export async function deletePendingVideo(db: D1Database, showId: number, id: number): Promise<void> {
  const pending = "EXISTS (SELECT 1 FROM videos WHERE id = ?1 AND show_id = ?2 AND status = 'pending')";
  await db.batch([
    db.prepare(`DELETE FROM video_tags WHERE video_id = ?1 AND ${pending}`).bind(id, showId),
    db.prepare(`DELETE FROM item_performers WHERE kind = 'video' AND item_id = ?1 AND ${pending}`).bind(id, showId),
    db.prepare(`DELETE FROM videos_fts WHERE rowid = ?1 AND ${pending}`).bind(id, showId),
    db.prepare("DELETE FROM videos WHERE id = ?1 AND show_id = ?2 AND status = 'pending'").bind(id, showId),
  ]);
}

export interface VideoFiles {
  mediaKey: string;
  previewKey: string;
  posterKey: string | null;
  mime: string;
  size: number;
}

/**
 * Publishes a pending video with its part: the part row and the status change in one batch, both
 * conditional on 'pending', so a repeated or parallel complete writes once. True when this call did.
 */
export async function publishVideo(db: D1Database, showId: number, id: number, f: VideoFiles): Promise<boolean> {
  const pending = "EXISTS (SELECT 1 FROM videos WHERE id = ?1 AND show_id = ?2 AND status = 'pending')";
  const [, updated] = await db.batch([
    db
      .prepare(`INSERT INTO video_parts (video_id, part, media_key, preview_key, mime, duration_s, size) SELECT ?1, 1, ?3, ?4, ?5, duration_s, ?6 FROM videos WHERE id = ?1 AND ${pending}`)
      .bind(id, showId, f.mediaKey, f.previewKey, f.mime, f.size),
    db.prepare("UPDATE videos SET status = 'published', poster_key = ?3 WHERE id = ?1 AND show_id = ?2 AND status = 'pending'").bind(id, showId, f.posterKey),
  ]);
  return (updated.meta.changes ?? 0) > 0;
}

export interface NewGallery {
  showId: number;
  titleEn: string;
  titleDe: string;
  price: number;
  palette: number;
  pictures: { mime: string; width: number; height: number }[];
  people: number[];
  now: number;
}

export const galleryPictureKey = (galleryId: number, idx: number, size: 'full' | 'thumb') => `uploads/galleries/${galleryId}/${idx}-${size}`;

/** A pending gallery and its picture rows (keys fixed now; the objects go up next); null over the cap. */
export async function insertPendingGallery(db: D1Database, g: NewGallery): Promise<StudioGallery | null> {
  const row = await db
    .prepare(
      `INSERT INTO galleries (title_en, show_id, title_de, picture_count, price, rating, palette, created_at, status, review)
       SELECT ?1, ?2, ?3, ?4, ?5, 0, ?7, ?8, 'pending', 'pending' WHERE ${underPendingCap('galleries')}
       RETURNING id, title_en, title_de, price, picture_count, status, review, review_reason, created_at`,
    )
    .bind(g.titleEn, g.showId, g.titleDe, g.pictures.length, g.price, null, g.palette, g.now)
    .first<StudioGallery>();
  if (!row) return null;
  await db.batch(
    g.pictures.map((p, i) =>
      db
        .prepare('INSERT INTO gallery_pictures (gallery_id, idx, full_key, thumb_key, mime, width, height) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .bind(row.id, i + 1, galleryPictureKey(row.id, i + 1, 'full'), galleryPictureKey(row.id, i + 1, 'thumb'), p.mime, p.width, p.height),
    ).concat(peopleOf(db, 'gallery', row.id, g.people)),
  );
  return row;
}

export interface PendingPicture {
  idx: number;
  full_key: string;
  thumb_key: string;
  mime: string;
}

/** The pictures of the show's pending gallery `id` (null: not this show's, unknown, or published). */
export async function pendingGalleryPictures(db: D1Database, showId: number, id: number): Promise<PendingPicture[] | null> {
  const [gallery, pictures] = await db.batch<{ id: number } | PendingPicture>([
    db.prepare("SELECT id FROM galleries WHERE id = ? AND show_id = ? AND status = 'pending'").bind(id, showId),
    db.prepare('SELECT idx, full_key, thumb_key, mime FROM gallery_pictures WHERE gallery_id = ? ORDER BY idx').bind(id),
  ]);
  return gallery.results.length ? (pictures.results as PendingPicture[]) : null;
}

/** Publishes a pending gallery; true when this call did. */
export async function publishGallery(db: D1Database, showId: number, id: number): Promise<boolean> {
  const r = await db.prepare("UPDATE galleries SET status = 'published' WHERE id = ? AND show_id = ? AND status = 'pending'").bind(id, showId).run();
  return (r.meta.changes ?? 0) > 0;
}
