// The demo catalogue's shape and its fixed numbers.
import type { CategoryRow, GalleryRow, ShowCategoryRow, ShowRow, ShowTagRow, TagRow, VideoRow } from '../lib/tables';

export const DEMO_MEMBER = { name: 'demo', email: 'demo@example.com', password: 'demo-pass-2026', coins: 500 };

export interface DemoData {
  categories: CategoryRow[];
  tags: TagRow[];
  shows: ShowRow[];
  showCategories: ShowCategoryRow[];
  showTags: ShowTagRow[];
  videos: VideoRow[];
  galleries: GalleryRow[];
}

export type SqlValue = string | number | null;

export const DEMO_SHOW_COUNT = 264;
export const DEMO_PALETTE_COUNT = 12;
