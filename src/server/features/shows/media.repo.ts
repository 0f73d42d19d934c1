import type { Locale } from '../../../shared/constants';
import type { GallerySummary, Paged, VideoSummary } from '../../../shared/shows';

/** The columns both media lists share; each adds its own. */
interface MediaRow {
  id: number;
  show_id: number;
  show_name: string;
  show_slug: string;
  title_en: string;
  title_de: string;
  price: number;
  rating: number;
}

interface VideoRow extends MediaRow {
  ccid: string;
  duration_s: number;
  parts: number;
}

interface GalleryRow extends MediaRow {
  picture_count: number;
}

export interface MediaQuery {
  page: number;
  limit: number;
  fts?: string | null;
  showId?: number | null;
  /** Only free media (price 0). */
  free?: boolean;
  locale: Locale;
}

/** One page of a media table (newest first) with its total, in one round trip. */
async function pagedMedia<R extends MediaRow, T>(
  db: D1Database,
  table: 'videos' | 'galleries',
  extraColumns: string,
  q: MediaQuery,
  map: (row: R, title: string) => T,
): Promise<Paged<T>> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (q.fts) {
    where.push(`m.id IN (SELECT rowid FROM ${table}_fts WHERE ${table}_fts MATCH ?)`);
    params.push(q.fts);
  }
  if (q.showId != null) {
    where.push('m.show_id = ?');
    params.push(q.showId);
  }
  if (q.free) where.push('m.price = 0');
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT m.id, m.show_id, s.name AS show_name, s.slug_name AS show_slug, m.title_en, m.title_de, m.price, m.rating, ${extraColumns}
         FROM ${table} m JOIN shows s ON s.id = m.show_id ${whereSql} ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`,
      )
      .bind(...params, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS total FROM ${table} m ${whereSql}`).bind(...params),
  ]);
  const total = (count.results[0] as { total: number } | undefined)?.total ?? 0;
  return {
    data: (rows.results as R[]).map((r) => map(r, q.locale === 'de' ? r.title_de : r.title_en)),
    current_page: q.page,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
    total,
  };
}

export function queryVideos(db: D1Database, q: MediaQuery): Promise<Paged<VideoSummary>> {
  return pagedMedia<VideoRow, VideoSummary>(db, 'videos', 'm.ccid, m.duration_s, m.parts', q, (r, title) => ({
    id: r.id,
    ccid: r.ccid,
    show_id: r.show_id,
    showName: r.show_name,
    showSlug: r.show_slug,
    title,
    duration: r.duration_s,
    parts: r.parts,
    price: r.price,
    rating: r.rating,
    image: `/img/video/${r.id}.svg`,
  }));
}

export function queryGalleries(db: D1Database, q: MediaQuery): Promise<Paged<GallerySummary>> {
  return pagedMedia<GalleryRow, GallerySummary>(db, 'galleries', 'm.picture_count', q, (r, title) => ({
    id: r.id,
    showId: r.show_id,
    showName: r.show_name,
    showSlug: r.show_slug,
    title,
    picture_count: r.picture_count,
    price: r.price,
    rating: r.rating,
    image: `/img/gallery/${r.id}.svg`,
  }));
}
