import type { GallerySummary, Paged, VideoSummary } from './shows';

// The video and gallery store (issue 13): the wire types of /api/videos, /api/galleries,
// /api/archive and the media stream, shared by the worker and the islands.

/** Spec section 9: list pages and the more-like-this strip. */
export const STORE_LIST_LIMIT = 48;
export const STORE_MLT_LIMIT = 12;
/** Spec section 9: a video is fetched again after 60 s. */
export const VIDEO_REFETCH_MS = 60_000;
/** Tags shown on a video part before "more". */
export const VIDEO_PART_TAGS_SHOWN = 4;
/** Sort orders of search/videos and search/galleries (anything else: newest). */
export const STORE_SORTS = ['newest', 'rating', 'price_asc', 'price_desc', 'views'] as const;
export type StoreSort = (typeof STORE_SORTS)[number];
export const RATING_STARS_MAX = 5;

/** Upload limits (studio). */
export const UPLOAD_VIDEO_MAX_BYTES = 200 * 1024 * 1024;
export const UPLOAD_VIDEO_TYPES = ['video/webm', 'video/mp4'] as const;
export const UPLOAD_PICTURE_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const GALLERY_PICTURES_MAX = 60;
/** The free preview of an uploaded video (made in the browser). */
export const PREVIEW_SECONDS = 8;

/**
 * Demo media (seeded into the local R2 by `npm start` and the e2e server): generated clips, one
 * per palette group, each with its preview. Keys are the R2 object keys.
 */
export const DEMO_CLIP_COUNT = 6;
export const DEMO_CLIP_SECONDS = 20;
export const DEMO_PREVIEW_SECONDS = 6;
export const demoClipKey = (n: number) => `demo/clips/${n}.webm`;
export const demoPreviewKey = (n: number) => `demo/clips/${n}-preview.webm`;
/** Demo gallery pictures: a pool shared by all demo galleries (palette, index 1..DEMO_PICTURES). */
export const DEMO_PICTURES = 24;
export const demoPictureKey = (palette: number, idx: number, size: 'full' | 'thumb') => `demo/pictures/${palette}/${idx}-${size}.svg`;

/** What the member has of an item. */
export interface Ownership {
  /** Bought (or free: price 0). */
  owned: boolean;
  /** The member's own rating (1-5) or null. */
  my_rating: number | null;
}

export interface VideoPart {
  part: number;
  duration: number;
  /** Always playable: the free preview. */
  preview_url: string;
}

/** GET videos/{id} (id or ccid). */
export interface VideoDetail extends Omit<VideoSummary, 'owned'>, Ownership {
  title_en: string;
  title_de: string;
  poster: string;
  views: number;
  rating_votes: number;
  tags: { slug: string; name: string }[];
  parts_list: VideoPart[];
  created_at: number;
}
export type VideoAnswer = VideoDetail;

export interface GalleryPicture {
  idx: number;
  width: number;
  height: number;
  /** The small size: always shown (the grid of a gallery someone has not bought is blurred). */
  thumb_url: string;
  /** The full size: only for owners (and free galleries); null otherwise. */
  full_url: string | null;
}

/** GET galleries/{showId}/{id}. */
export interface GalleryDetail extends Omit<GallerySummary, 'owned'>, Ownership {
  title_en: string;
  title_de: string;
  pictures: GalleryPicture[];
  created_at: number;
}
export type GalleryAnswer = GalleryDetail;

/** GET galleries/free/{id}: the images of a free gallery (403 gallery.not_free otherwise). */
export interface FreeGalleryAnswer {
  images: GalleryPicture[];
}

/** POST videos/buy/{ccid}/{part}, galleries/buy/{showId}/{galleryId}. `already`: owned before, nothing charged. */
export interface BuyAnswer {
  ok: true;
  already: boolean;
  /** Paid with this prize (coupon code) instead of coins. */
  voucher: string | null;
  user: { coins: number };
}

/** POST videos/rate/{ccid}/{part}, galleries/rate/{showId}/{galleryId} with { rating: 1..5 }. */
export interface RateAnswer {
  rating: number;
  rating_votes: number;
  my_rating: number;
}

/** GET videos/play/{ccid}/{part}: where the owner streams the whole part (403 video.not_owned). */
export interface PlayAnswer {
  url: string;
  mime: string;
  duration: number;
}

/** POST videos/view/{ccid}/{part}: counted once per member (or visitor) and day. */
export interface ViewAnswer {
  views: number;
  counted: boolean;
}

/** An archive entry: the item and when it was bought. */
export type ArchiveVideo = VideoSummary & { bought_at: number };
export type ArchiveGallery = GallerySummary & { bought_at: number };

/** Counts of the member's archive: items owned and coins spent per kind. */
export interface ArchiveCounts {
  video_count: number;
  gallery_count: number;
  video_total: number;
  gallery_total: number;
}
/** GET archive/latest: the newest few of each kind. */
export interface ArchiveLatestAnswer extends ArchiveCounts {
  videos: ArchiveVideo[];
  galleries: ArchiveGallery[];
}
/** GET archive/videos?page, archive/galleries?page. */
export type ArchiveVideosAnswer = Paged<ArchiveVideo> & ArchiveCounts;
export type ArchiveGalleriesAnswer = Paged<ArchiveGallery> & ArchiveCounts;

/**
 * Media addresses, all answered by the worker from R2 (Range, 206/416/304): previews, posters and
 * thumbnails for everyone; whole parts and full pictures only for owners (403 otherwise).
 */
export const mediaUrl = {
  part: (videoId: number, part: number) => `/media/videos/${videoId}/${part}`,
  preview: (videoId: number, part: number) => `/media/videos/${videoId}/${part}/preview`,
  poster: (videoId: number) => `/media/videos/${videoId}/poster`,
  picture: (galleryId: number, idx: number, size: 'full' | 'thumb') => `/media/galleries/${galleryId}/${idx}/${size}`,
};

/** GET search/videos/{ccid}/mlt, search/galleries/{id}/mlt. */
export interface MltAnswer<T> {
  data: T[];
}
