// Rows of the catalogue's D1 tables as the migrations define them (the seed writes whole rows;
// repositories select the columns they need of them).

export interface CategoryRow {
  id: number;
  slug: string;
  slug_description: string;
  name_en: string;
  name_de: string;
  is_search: number;
  position: number;
}

export interface TagRow {
  id: number;
  slug: string;
  name_en: string;
  name_de: string;
}

export interface ShowRow {
  id: number;
  universal_id: string;
  contentprovider_id: number;
  name: string;
  slug_name: string;
  age: number;
  languages: string;
  /** The city's German name; city_en its English one (pages show the visitor's language). */
  city: string;
  city_en: string;
  country: string;
  lat: number;
  lon: number;
  price_per_minute: number;
  price_factor_exclusive: number;
  flag_free: number;
  flag_exclusive: number;
  features: string;
  rating: number;
  /** How many chat ratings `rating` is the mean of (the seeded rating counts as this many). */
  rating_count: number;
  preview_count: number;
  palette: number;
  ribbon: string | null;
  slogan_en: string;
  slogan_de: string;
  description_en: string;
  description_de: string;
  online: number;
  online_since: number | null;
  sort_rank: number;
  created_at: number;
}

export interface ShowCategoryRow {
  category_id: number;
  show_id: number;
}

export interface ShowTagRow {
  tag_id: number;
  show_id: number;
}

export interface VideoRow {
  id: number;
  ccid: string;
  show_id: number;
  title_en: string;
  title_de: string;
  duration_s: number;
  parts: number;
  price: number;
  rating: number;
  palette: number;
  /** The seeded rating counts as this many votes when members rate. */
  rating_votes: number;
  created_at: number;
}

export interface GalleryRow {
  id: number;
  show_id: number;
  title_en: string;
  title_de: string;
  picture_count: number;
  price: number;
  rating: number;
  palette: number;
  rating_votes: number;
  created_at: number;
}

/** A part of a video: its whole file and free preview in the MEDIA bucket. */
export interface VideoPartRow {
  video_id: number;
  part: number;
  media_key: string;
  preview_key: string;
  mime: string;
  duration_s: number;
  size: number;
}

export interface VideoTagRow {
  video_id: number;
  tag_id: number;
}

/** A gallery picture in two sizes (keys in the MEDIA bucket); width/height of the full size. */
export interface GalleryPictureRow {
  gallery_id: number;
  idx: number;
  full_key: string;
  thumb_key: string;
  mime: string;
  width: number;
  height: number;
}
