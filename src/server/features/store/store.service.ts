import type { Locale } from '../../../shared/constants';
import type { GallerySummary, Paged, VideoSummary } from '../../../shared/shows';
import { searchText } from '../../../shared/search-names';
import {
  mediaUrl,
  STORE_LIST_LIMIT,
  STORE_MLT_LIMIT,
  type ArchiveGalleriesAnswer,
  type ArchiveLatestAnswer,
  type ArchiveVideosAnswer,
  type GalleryDetail,
  type StoreSort,
  type VideoDetail,
} from '../../../shared/store';
import { withoutHidden } from '../../lib/geo-hidden';
import { queryArchiveLatest, queryArchivePage } from './archive.repo';
import { findGallery, findVideo, galleryExists, videoIdByCcid } from './item.repo';
import { queryList, queryMoreLike, toGallerySummary, toVideoSummary, type GalleryListRow, type VideoListRow } from './store.repo';

// What the store's pages and routes read (issue 13). No SQL here (store.repo.ts, item.repo.ts, archive.repo.ts).

/** How many of each kind GET archive/latest shows. */
export const ARCHIVE_LATEST = 6;

const clampLimit = (n: number, max: number) => (Number.isInteger(n) ? Math.min(max, Math.max(1, n)) : max);
const clampPage = (n: number) => (Number.isInteger(n) && n >= 1 ? Math.min(n, 1_000_000) : 1);

/** The start of an item's page: its tile, whether the member owns it, their rating and both titles. */
function detailHead<S extends { owned?: boolean }>(tile: S, row: { my_rating: number | null; title_en: string; title_de: string }) {
  const { owned, ...summary } = tile;
  return { ...summary, owned: owned === true, my_rating: row.my_rating, title_en: row.title_en, title_de: row.title_de };
}

/** A video by numeric id or ccid (e.g. `v000012`), with the member's ownership and rating. */
export async function getVideo(db: D1Database, q: { id: number | string; locale: Locale; userId: number | null; seer?: number; hidden?: readonly number[] }): Promise<VideoDetail | null> {
  const raw = String(q.id);
  let ref: { id: number } | { ccid: string };
  if (/^\d{1,9}$/.test(raw)) ref = { id: Number(raw) };
  else if (/^[a-z0-9_-]{1,40}$/i.test(raw)) ref = { ccid: raw };
  else return null;
  const found = await findVideo(db, ref, q.locale, q.userId, q.seer);
  // A show hidden from the asker's place (geo-blocking): its items do not exist for them.
  if (!found || q.hidden?.includes(found.row.show_id)) return null;
  const { row, parts, tags } = found;
  return {
    ...detailHead(toVideoSummary(row, q.locale), row),
    poster: mediaUrl.poster(row.id),
    views: row.views,
    rating_votes: row.rating_votes,
    tags,
    parts_list: parts.map((p) => ({ part: p.part, duration: p.duration_s, preview_url: mediaUrl.preview(row.id, p.part) })),
    created_at: row.created_at,
  };
}

/** A gallery of a show (null when it is not that show's); full pictures only for owners and free galleries. */
export async function getGallery(db: D1Database, q: { showId: number; id: number; locale: Locale; userId: number | null; seer?: number; hidden?: readonly number[] }): Promise<GalleryDetail | null> {
  if (q.hidden?.includes(q.showId)) return null;
  const found = await findGallery(db, q.showId, q.id, q.userId, q.seer);
  if (!found) return null;
  const { row, pictures } = found;
  const head = detailHead(toGallerySummary(row, q.locale), row);
  const full = head.owned || row.price === 0;
  return {
    ...head,
    pictures: pictures.map((p) => ({
      idx: p.idx,
      width: p.width,
      height: p.height,
      thumb_url: mediaUrl.picture(row.id, p.idx, 'thumb'),
      full_url: full ? mediaUrl.picture(row.id, p.idx, 'full') : null,
    })),
    created_at: row.created_at,
  };
}

export interface StoreListQuery {
  page: number;
  limit: number;
  /** Free text (made an FTS expression here). */
  search?: string | null;
  showId?: number | null;
  tags?: string[];
  sort?: StoreSort;
  cat?: number | null;
  /** Shows hidden from the asker's place (geo-blocking). */
  hidden?: readonly number[];
  locale: Locale;
  userId: number | null;
}

function listArgs(q: StoreListQuery) {
  return {
    page: clampPage(q.page),
    limit: clampLimit(q.limit, STORE_LIST_LIMIT),
    text: searchText(q.search),
    showId: q.showId ?? null,
    tags: q.tags ?? [],
    sort: q.sort,
    cat: q.cat ?? null,
    hidden: q.hidden ?? [],
    userId: q.userId,
  };
}

/** Published videos, newest first unless sorted; `free`: price 0 only. */
export async function listVideos(db: D1Database, q: StoreListQuery & { free?: boolean }): Promise<Paged<VideoSummary>> {
  const page = await queryList<VideoListRow>(db, 'video', { ...listArgs(q), free: q.free === true });
  return { ...page, data: page.data.map((r) => toVideoSummary(r, q.locale)) };
}

/** Published galleries, newest first unless sorted. */
export async function listGalleries(db: D1Database, q: StoreListQuery): Promise<Paged<GallerySummary>> {
  const page = await queryList<GalleryListRow>(db, 'gallery', listArgs(q));
  return { ...page, data: page.data.map((r) => toGallerySummary(r, q.locale)) };
}

interface MoreLike {
  showId?: number | null;
  limit: number;
  locale: Locale;
  userId: number | null;
  hidden?: readonly number[];
}

/** More like a video (null: no such video). */
export async function moreLikeVideo(db: D1Database, q: MoreLike & { ccid: string }): Promise<VideoSummary[] | null> {
  const id = /^[a-z0-9_-]{1,40}$/i.test(q.ccid) ? await videoIdByCcid(db, q.ccid) : null;
  if (id === null) return null;
  const rows = await queryMoreLike<VideoListRow>(db, 'video', id, q.showId ?? null, clampLimit(q.limit, STORE_MLT_LIMIT), q.userId, q.hidden);
  return rows.map((r) => toVideoSummary(r, q.locale));
}

/** More like a gallery (null: no such gallery). */
export async function moreLikeGallery(db: D1Database, q: MoreLike & { id: number }): Promise<GallerySummary[] | null> {
  if (!(await galleryExists(db, q.id))) return null;
  const rows = await queryMoreLike<GalleryListRow>(db, 'gallery', q.id, q.showId ?? null, clampLimit(q.limit, STORE_MLT_LIMIT), q.userId, q.hidden);
  return rows.map((r) => toGallerySummary(r, q.locale));
}

/** The member's newest purchases of each kind and the archive counts. */
export async function archiveLatest(db: D1Database, q: { userId: number; locale: Locale; hidden?: readonly number[] }): Promise<ArchiveLatestAnswer> {
  const latest = await queryArchiveLatest(db, q.userId, ARCHIVE_LATEST);
  const { counts } = latest;
  const videos = withoutHidden(latest.videos, q.hidden ?? [], (r) => r.show_id);
  const galleries = withoutHidden(latest.galleries, q.hidden ?? [], (r) => r.show_id);
  return {
    ...counts,
    videos: videos.map((r) => ({ ...toVideoSummary(r, q.locale), bought_at: r.bought_at })),
    galleries: galleries.map((r) => ({ ...toGallerySummary(r, q.locale), bought_at: r.bought_at })),
  };
}

export function archiveList(db: D1Database, q: { userId: number; kind: 'videos'; page: number; locale: Locale; hidden?: readonly number[] }): Promise<ArchiveVideosAnswer>;
export function archiveList(db: D1Database, q: { userId: number; kind: 'galleries'; page: number; locale: Locale; hidden?: readonly number[] }): Promise<ArchiveGalleriesAnswer>;
export function archiveList(db: D1Database, q: { userId: number; kind: 'videos' | 'galleries'; page: number; locale: Locale; hidden?: readonly number[] }): Promise<ArchiveVideosAnswer | ArchiveGalleriesAnswer>;
/** One page (48) of the member's purchases of one kind, with the archive counts. */
export async function archiveList(db: D1Database, q: { userId: number; kind: 'videos' | 'galleries'; page: number; locale: Locale; hidden?: readonly number[] }): Promise<ArchiveVideosAnswer | ArchiveGalleriesAnswer> {
  const page = clampPage(q.page);
  if (q.kind === 'videos') {
    const { counts, data, ...rest } = await queryArchivePage<VideoListRow>(db, 'video', q.userId, page, STORE_LIST_LIMIT);
    return { ...counts, ...rest, data: withoutHidden(data, q.hidden ?? [], (r) => r.show_id).map((r) => ({ ...toVideoSummary(r, q.locale), bought_at: r.bought_at })) };
  }
  const { counts, data, ...rest } = await queryArchivePage<GalleryListRow>(db, 'gallery', q.userId, page, STORE_LIST_LIMIT);
  return { ...counts, ...rest, data: withoutHidden(data, q.hidden ?? [], (r) => r.show_id).map((r) => ({ ...toGallerySummary(r, q.locale), bought_at: r.bought_at })) };
}
