// Show and category shapes on the wire and their pure rules.
export interface Category {
  id: number;
  name: string;
  slug: string;
  slug_description: string;
  is_search: boolean;
}

export interface ShowSummary {
  id: number;
  universalId: string;
  contentproviderId: number;
  show_id: number;
  name: string;
  showName: string;
  slugName: string;
  age: number;
  online: boolean;
  languages: string[];
  city: string;
  country: string;
  pricePerMinute: number;
  priceFactorExclusive: number;
  flags: { free: boolean; exclusive: number };
  features: string[];
  rating: number;
  previews: number[];
  ribbon: string | null;
  texts: { slogan: string; description: string };
  /** True for the logged-in member's favourites (one query beside the list), else false. */
  isFavorite: boolean;
  /** km from the searched location (location search only). */
  distance?: number;
}

export interface Paged<T> {
  data: T[];
  current_page: number;
  last_page: number;
  total: number;
}

export const EXCLUSIVE_AVAILABLE = 1;
export const EXCLUSIVE_ONLY = 2;

/** Exclusive price per minute = price x factor / 100, rounded. */
export function exclusivePrice(pricePerMinute: number, factorPercent: number): number {
  return Math.round((pricePerMinute * factorPercent) / 100);
}

/** Exclusive mode is active if either bit is set. */
export function exclusiveActive(flags: number): boolean {
  return (flags & (EXCLUSIVE_AVAILABLE | EXCLUSIVE_ONLY)) !== 0;
}

/** Exclusive for voice calls: exclusive active and a factor of at most 100. */
export function exclusiveVoiceActive(flags: number, factorPercent: number): boolean {
  return exclusiveActive(flags) && factorPercent <= 100;
}

export function exclusiveOnly(flags: number): boolean {
  return (flags & EXCLUSIVE_ONLY) !== 0;
}

export function categoryHref(c: Pick<Category, 'id' | 'slug' | 'slug_description'>): string {
  return `/shows/${c.id}/${c.slug}/${c.slug_description}`;
}

export function showHref(s: Pick<ShowSummary, 'id' | 'slugName'>): string {
  return `/chat/${s.id}/${s.slugName}`;
}

/** A show's preview picture: 400x300 (tiles, lists), `large` 800x600 (the show page's gallery, video posters). */
export function showImageSrc(showId: number, index: number, large = false): string {
  return `/img/show/${showId}/${index}${large ? '-l' : ''}.jpg`;
}

export interface ShowDetail extends ShowSummary {
  texts: { slogan: string; description: string };
  pricing: { private: number; exclusive: number | null };
  exclusivemode: boolean;
  exclusiveOnly: boolean;
  freemode: boolean;
  isFavorite: boolean;
  phone: { not_available: boolean; busy: boolean; online: boolean; extension: string | null; connecting: boolean };
  server: { host: string | null };
  tags: { slug: string; name: string }[];
  categories: { id: number; name: string; slug: string; slug_description: string }[];
  lat: number;
  lon: number;
  counts: { videos: number; galleries: number };
}

export interface VideoSummary {
  id: number;
  ccid: string;
  show_id: number;
  showName: string;
  showSlug: string;
  title: string;
  duration: number;
  parts: number;
  price: number;
  rating: number;
  image: string;
  /** The logged-in member owns it (bought, or free): the tile's "yours" badge. */
  owned?: boolean;
}

export interface GallerySummary {
  id: number;
  showId: number;
  showName: string;
  showSlug: string;
  title: string;
  picture_count: number;
  price: number;
  rating: number;
  image: string;
  /** The logged-in member owns it (bought, or free): the tile's "yours" badge. */
  owned?: boolean;
}

export interface SearchAll {
  shows: { data: ShowSummary[]; total: number };
  videos: { data: VideoSummary[]; total: number };
  galleries: { data: GallerySummary[]; total: number };
}

export interface Promo {
  id: number;
  show_id: number;
  title: string;
  start: number;
  stop: number;
  show: ShowSummary;
}

/**
 * FTS5 query from free text: word tokens as prefix matches joined with AND; null for an empty
 * query or '*'. Quoting each token keeps FTS syntax characters in the input inert.
 */
export function ftsQuery(input: string | null | undefined): string | null {
  const tokens = (input ?? '')
    .slice(0, 200)
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .slice(0, 8)
    .map((t) => `"${t.slice(0, 40)}"*`);
  return tokens.length ? tokens.join(' AND ') : null;
}

/** Parses "lat,lon" style query values; null unless both are finite and in range. */
export function parseLatLon(lat: string | null | undefined, lon: string | null | undefined): { lat: number; lon: number } | null {
  if (!lat || !lon || lat.length > 20 || lon.length > 20) return null;
  const a = Number(lat);
  const b = Number(lon);
  if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a) > 90 || Math.abs(b) > 180) return null;
  return { lat: a, lon: b };
}

/** Great-circle distance in km. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The filter chips of the show search. */
export const SHOW_FILTERS = ['online', 'free', 'new', 'free_online'] as const;
export type ShowFilter = (typeof SHOW_FILTERS)[number];
