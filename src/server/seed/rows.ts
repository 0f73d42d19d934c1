// The demo catalogue's shape and its fixed numbers.
import type { CategoryRow, GalleryPictureRow, GalleryRow, ShowCategoryRow, ShowRow, ShowTagRow, TagRow, VideoPartRow, VideoRow, VideoTagRow } from '../lib/tables';

export const DEMO_MEMBER = { name: 'demo', email: 'demo@example.com', password: 'demo-pass-2026', coins: 500 };

export interface DemoData {
  categories: CategoryRow[];
  tags: TagRow[];
  shows: ShowRow[];
  showCategories: ShowCategoryRow[];
  showTags: ShowTagRow[];
  videos: VideoRow[];
  galleries: GalleryRow[];
  /** The store's rows (store-rows.ts): derived from the videos, galleries and show tags above. */
  videoParts: VideoPartRow[];
  videoTags: VideoTagRow[];
  galleryPictures: GalleryPictureRow[];
}

export type SqlValue = string | number | null;

export const DEMO_SHOW_COUNT = 264;
export const DEMO_PALETTE_COUNT = 12;
