import type { ShowPerson } from './records';
import type { UploadAppeal } from './restrictions';
import { UPLOAD_PICTURE_MAX_BYTES, UPLOAD_VIDEO_MAX_BYTES } from './store';

// Studio uploads (issue 13): the performer's videos and galleries, written through
// /api/studio/uploads. A video goes up as an R2 multipart upload (chunks of UPLOAD_CHUNK_BYTES, the
// last one shorter), its free preview and poster are made in the browser; a gallery's pictures go
// up one by one in two sizes (the thumbnail made in the browser). Items stay 'pending' (not in
// the store) until complete.

/** R2 multipart parts must be at least 5 MiB (all but the last): every chunk is exactly this. */
export const UPLOAD_CHUNK_BYTES = 5 * 1024 * 1024;
/** The most chunks a video may have (UPLOAD_VIDEO_MAX_BYTES in UPLOAD_CHUNK_BYTES). */
export const UPLOAD_MAX_CHUNKS = Math.ceil(UPLOAD_VIDEO_MAX_BYTES / UPLOAD_CHUNK_BYTES);
/** The browser-made preview and poster. */
export const UPLOAD_PREVIEW_MAX_BYTES = 24 * 1024 * 1024;
export const UPLOAD_POSTER_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_THUMB_MAX_BYTES = Math.min(2 * 1024 * 1024, UPLOAD_PICTURE_MAX_BYTES);
/** The thumbnail box of a gallery picture (made in the browser, aspect kept). */
export const UPLOAD_THUMB_BOX = { width: 360, height: 240 } as const;
export const UPLOAD_TITLE_MAX = 120;
export const UPLOAD_PRICE_MAX = 1000;
export const UPLOAD_TAGS_MAX = 10;
/** Longest video accepted (seconds), as the browser measured it. */
export const UPLOAD_DURATION_MAX = 6 * 3600;

/** Unfinished (pending) uploads a show may start per kind within UPLOAD_PENDING_WINDOW_S: reserved atomically. */
export const UPLOAD_PENDING_MAX = 10;
export const UPLOAD_PENDING_WINDOW_S = 86_400;

/**
 * Upload bodies (chunks, previews, posters, pictures) one account may send at the same time: the
 * studio sends one after the other, so this leaves room for a second tab and stops a burst from
 * tying up the worker for everyone else (429 `upload_busy` with Retry-After beyond it).
 */
export const UPLOAD_CONCURRENT_MAX = 3;

export type UploadStatus = 'pending' | 'published';
/** An operator's review of a complete upload (issue 29): only 'approved' items reach members. */
export type ReviewState = 'pending' | 'approved' | 'rejected';

export interface StudioVideo {
  id: number;
  ccid: string;
  title_en: string;
  title_de: string;
  price: number;
  duration: number;
  status: UploadStatus;
  review: ReviewState;
  /** The operator's reason for a rejection (shown to the performer). */
  review_reason: string | null;
  created_at: number;
}

export interface StudioGallery {
  id: number;
  title_en: string;
  title_de: string;
  price: number;
  picture_count: number;
  status: UploadStatus;
  review: ReviewState;
  review_reason: string | null;
  created_at: number;
}

/** A listed item's appeal against its removal or refusal (issue 29 point 3), and whether one may be filed now. */
export interface Appealable {
  appeal: UploadAppeal | null;
  can_appeal: boolean;
}

/** GET /api/studio/uploads: the show's videos and galleries, newest first, pending ones included. */
export interface StudioUploadsAnswer {
  videos: (StudioVideo & Appealable)[];
  galleries: (StudioGallery & Appealable)[];
  /** The show's verified people (migration 0033): the form ticks which of them an upload depicts. */
  people: ShowPerson[];
}

/** POST /api/studio/uploads/videos: the pending video and the multipart upload to send chunks to. */
export interface VideoUploadStart {
  video: StudioVideo;
  upload: string;
  chunk_bytes: number;
}

/** PUT /api/studio/uploads/videos/{id}/parts/{n}?upload=: what complete needs back. */
export interface UploadedPart {
  part: number;
  etag: string;
}

/** POST /api/studio/uploads/galleries: the pending gallery (pictures then go up one by one). */
export interface GalleryUploadStart {
  gallery: StudioGallery;
}

/** Sale references of the ledger (reason 'purchase'): `purchase:video:{id}:{user}`, `purchase:gallery:{id}:{user}`. */
export function saleOf(ref: string | undefined): { kind: 'video' | 'gallery'; id: number } | null {
  const m = /^purchase:(video|gallery):(\d{1,9}):\d+(?::house)?$/.exec(ref ?? '');
  return m ? { kind: m[1] as 'video' | 'gallery', id: Number(m[2]) } : null;
}

/** The first bytes of each accepted type (so a mislabeled file is refused). */
export function sniffMime(head: Uint8Array): string | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return 'video/webm';
  if (at(4, 0x66, 0x74, 0x79, 0x70)) return 'video/mp4';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}
