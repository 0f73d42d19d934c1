import type { Paged } from '../../../shared/shows';
import type { ArchiveCounts } from '../../../shared/store';
import { tileColumns, type GalleryListRow, type Kind, type VideoListRow } from './store.repo';

// The member's archive (issue 13): what they bought, newest purchase first, and the counts.

export type ArchiveRow<R> = R & { bought_at: number };

const TABLE = { video: 'videos', gallery: 'galleries' } as const;

function listStatement(db: D1Database, kind: Kind, userId: number, limit: number, offset: number): D1PreparedStatement {
  return db
    .prepare(
      `SELECT ${tileColumns(kind)}, p.created_at AS bought_at
       FROM purchases p JOIN ${TABLE[kind]} m ON m.id = p.item_id JOIN shows s ON s.id = m.show_id
       WHERE p.user_id = ?1 AND p.kind = '${kind}' ORDER BY p.created_at DESC, p.id DESC LIMIT ?2 OFFSET ?3`,
    )
    .bind(userId, limit, offset);
}

function countsStatement(db: D1Database, userId: number): D1PreparedStatement {
  return db
    .prepare(
      `SELECT COALESCE(SUM(kind = 'video'), 0) AS video_count, COALESCE(SUM(kind = 'gallery'), 0) AS gallery_count,
         COALESCE(SUM(CASE WHEN kind = 'video' THEN coins END), 0) AS video_total, COALESCE(SUM(CASE WHEN kind = 'gallery' THEN coins END), 0) AS gallery_total
       FROM purchases WHERE user_id = ?`,
    )
    .bind(userId);
}

/** The newest `n` purchases of each kind and the counts, in one round trip. */
export async function queryArchiveLatest(db: D1Database, userId: number, n: number) {
  const [videos, galleries, counts] = await db.batch([listStatement(db, 'video', userId, n, 0), listStatement(db, 'gallery', userId, n, 0), countsStatement(db, userId)]);
  return {
    videos: videos.results as ArchiveRow<VideoListRow>[],
    galleries: galleries.results as ArchiveRow<GalleryListRow>[],
    counts: counts.results[0] as unknown as ArchiveCounts,
  };
}

/** One page of one kind's purchases with the counts. */
export async function queryArchivePage<R extends VideoListRow | GalleryListRow>(db: D1Database, kind: Kind, userId: number, page: number, limit: number): Promise<Paged<ArchiveRow<R>> & { counts: ArchiveCounts }> {
  const [rows, counts] = await db.batch([listStatement(db, kind, userId, limit, (page - 1) * limit), countsStatement(db, userId)]);
  const c = counts.results[0] as unknown as ArchiveCounts;
  const total = kind === 'video' ? c.video_count : c.gallery_count;
  return { data: rows.results as ArchiveRow<R>[], current_page: page, last_page: Math.max(1, Math.ceil(total / limit)), total, counts: c };
}
