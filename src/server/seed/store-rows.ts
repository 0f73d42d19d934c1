// The store's demo rows (issue 13), derived from the generated catalogue without drawing from its
// random sequence (the shows, names and prices stay as they were): each video's parts and tags,
// each gallery's pictures. Pure, like generator.ts.
import { DEMO_CLIP_BYTES } from '../../shared/demo-media';
import { DEMO_CLIP_COUNT, DEMO_CLIP_SECONDS, DEMO_PICTURES, demoClipKey, demoPictureKey, demoPreviewKey } from '../../shared/store';
import type { GalleryPictureRow, ShowTagRow, VideoPartRow, VideoRow, VideoTagRow } from '../lib/tables';
import { DEMO_PALETTE_COUNT, type DemoData } from './rows';

/** At most this many tags per video. */
export const VIDEO_TAGS_MAX = 6;
/** The demo pictures' sizes (full; the thumbnail is 360x240). */
export const DEMO_PICTURE_SIZE = { width: 1200, height: 800 };

/**
 * How many votes a seeded rating counts as (spread by id): a new rating then moves it by its
 * weight instead of replacing it. Shows: 5-60 (migration 0022 gives databases seeded earlier the same).
 */
export function demoRatingVotes(kind: 'video' | 'gallery' | 'show', id: number): number {
  if (kind === 'show') return 5 + ((id * 13) % 56);
  return kind === 'video' ? 3 + ((id * 7) % 38) : 3 + ((id * 5) % 29);
}

/** The clip of a part: `(videoId + part) % DEMO_CLIP_COUNT`. */
export const demoClipOf = (videoId: number, part: number) => (videoId + part) % DEMO_CLIP_COUNT;

function videoParts(v: VideoRow): VideoPartRow[] {
  return Array.from({ length: v.parts }, (_, i) => {
    const n = demoClipOf(v.id, i + 1);
    return {
      video_id: v.id,
      part: i + 1,
      media_key: demoClipKey(n),
      preview_key: demoPreviewKey(n),
      mime: 'video/webm',
      duration_s: DEMO_CLIP_SECONDS,
      size: DEMO_CLIP_BYTES[n] ?? 1,
    };
  });
}

/** Some of the show's tags (2 up to all, at most 6), starting at a place the id picks. */
function videoTags(v: VideoRow, showTags: number[]): VideoTagRow[] {
  if (showTags.length === 0) return [];
  const count = Math.min(VIDEO_TAGS_MAX, showTags.length, 2 + (v.id % 5));
  return Array.from({ length: count }, (_, i) => ({ video_id: v.id, tag_id: showTags[(v.id + i) % showTags.length] })).sort((a, b) => a.tag_id - b.tag_id);
}

/** Adds the store's rows to the catalogue; a video's duration becomes the sum of its parts. */
export function withStoreRows(data: Omit<DemoData, 'videoParts' | 'videoTags' | 'galleryPictures'>): DemoData {
  const tagsOf = new Map<number, number[]>();
  for (const t of data.showTags as ShowTagRow[]) tagsOf.set(t.show_id, [...(tagsOf.get(t.show_id) ?? []), t.tag_id]);
  const videoPartRows: VideoPartRow[] = [];
  const videoTagRows: VideoTagRow[] = [];
  const videos = data.videos.map((v) => {
    const parts = videoParts(v);
    videoPartRows.push(...parts);
    videoTagRows.push(...videoTags(v, tagsOf.get(v.show_id) ?? []));
    return { ...v, duration_s: parts.reduce((sum, p) => sum + p.duration_s, 0) };
  });
  const galleryPictures: GalleryPictureRow[] = data.galleries.flatMap((g) =>
    Array.from({ length: g.picture_count }, (_, i) => {
      const pool = (i % DEMO_PICTURES) + 1;
      const palette = g.palette % DEMO_PALETTE_COUNT;
      return {
        gallery_id: g.id,
        idx: i + 1,
        full_key: demoPictureKey(palette, pool, 'full'),
        thumb_key: demoPictureKey(palette, pool, 'thumb'),
        mime: 'image/svg+xml',
        ...DEMO_PICTURE_SIZE,
      };
    }),
  );
  return { ...data, videos, videoParts: videoPartRows, videoTags: videoTagRows, galleryPictures };
}
