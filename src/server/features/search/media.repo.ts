import type { Locale } from '../../../shared/constants';
import type { GallerySummary, Paged, VideoSummary } from '../../../shared/shows';

interface VideoRow {
  id: number;
  ccid: string;
  show_id: number;
  show_name: string;
  show_slug: string;
  title_en: string;
  title_de: string;
  duration_s: number;
  parts: number;
  price: number;
  rating: number;
}

interface GalleryRow {
  id: number;
  show_id: number;
  show_name: string;
  show_slug: string;
  title_en: string;
  title_de: string;
  picture_count: number;
  price: number;
  rating: number;
}

export interface MediaQuery {
  page: number;
  limit: number;
  fts?: string | null;
  showId?: number | null;
  locale: Locale;
}

function scope(table: 'videos' | 'galleries', q: MediaQuery) {
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
  return { whereSql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

export async function queryVideos(db: D1Database, q: MediaQuery): Promise<Paged<VideoSummary>> {
  const { whereSql, params } = scope('videos', q);
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT m.id, m.ccid, m.show_id, s.name AS show_name, s.slug_name AS show_slug, m.title_en, m.title_de, m.duration_s, m.parts, m.price, m.rating
         FROM videos m JOIN shows s ON s.id = m.show_id ${whereSql} ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`,
      )
      .bind(...params, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS total FROM videos m ${whereSql}`).bind(...params),
  ]);
  const total = (count.results[0] as { total: number } | undefined)?.total ?? 0;
  return {
    data: (rows.results as unknown as VideoRow[]).map((r) => ({
      id: r.id,
      ccid: r.ccid,
      show_id: r.show_id,
      showName: r.show_name,
      showSlug: r.show_slug,
      title: q.locale === 'de' ? r.title_de : r.title_en,
      duration: r.duration_s,
      parts: r.parts,
      price: r.price,
      rating: r.rating,
      image: `/img/video/${r.id}.svg`,
    })),
    current_page: q.page,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
    total,
  };
}

export async function queryGalleries(db: D1Database, q: MediaQuery): Promise<Paged<GallerySummary>> {
  const { whereSql, params } = scope('galleries', q);
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT m.id, m.show_id, s.name AS show_name, s.slug_name AS show_slug, m.title_en, m.title_de, m.picture_count, m.price, m.rating
         FROM galleries m JOIN shows s ON s.id = m.show_id ${whereSql} ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`,
      )
      .bind(...params, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS total FROM galleries m ${whereSql}`).bind(...params),
  ]);
  const total = (count.results[0] as { total: number } | undefined)?.total ?? 0;
  return {
    data: (rows.results as unknown as GalleryRow[]).map((r) => ({
      id: r.id,
      showId: r.show_id,
      showName: r.show_name,
      showSlug: r.show_slug,
      title: q.locale === 'de' ? r.title_de : r.title_en,
      picture_count: r.picture_count,
      price: r.price,
      rating: r.rating,
      image: `/img/gallery/${r.id}.svg`,
    })),
    current_page: q.page,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
    total,
  };
}
