import type { StoreContext } from './store-links';
import type { GallerySummary, Paged, Promo, ShowSummary, VideoSummary } from './shows';

// Shapes the list island gets as props (JSON in the page) and from the API: only what a tile
// shows, so the embedded props stay small.

export interface TileShow {
  /** The logged-in member's favourite. */
  fav?: true;
  id: number;
  name: string;
  slugName: string;
  age: number;
  online: boolean;
  languages: string[];
  city: string;
  pricePerMinute: number;
  rating: number;
  ribbon: string | null;
  features: string[];
  free: boolean;
  slogan: string;
  distance?: number;
}

export type TileVideo = Pick<VideoSummary, 'id' | 'show_id' | 'showName' | 'showSlug' | 'title' | 'duration' | 'price' | 'rating' | 'image' | 'owned'>;
export type TileGallery = Pick<GallerySummary, 'id' | 'showId' | 'showName' | 'showSlug' | 'title' | 'picture_count' | 'price' | 'rating' | 'image' | 'owned'>;

export type ListKind = 'shows' | 'videos' | 'galleries';
export type ListItem = TileShow | TileVideo | TileGallery;

export interface PromoLite {
  id: number;
  title: string;
  stop: number;
  show: { id: number; name: string; slugName: string };
}

export function toTileShow(s: ShowSummary): TileShow {
  const t: TileShow = {
    id: s.id,
    name: s.name,
    slugName: s.slugName,
    age: s.age,
    online: s.online,
    languages: s.languages,
    city: s.city,
    pricePerMinute: s.pricePerMinute,
    rating: s.rating,
    ribbon: s.ribbon,
    features: s.features,
    free: s.flags.free,
    slogan: s.texts.slogan,
  };
  if (typeof s.distance === 'number') t.distance = s.distance;
  if (s.isFavorite) t.fav = true;
  return t;
}

export function toTileVideo(v: VideoSummary): TileVideo {
  const t: TileVideo = { id: v.id, show_id: v.show_id, showName: v.showName, showSlug: v.showSlug, title: v.title, duration: v.duration, price: v.price, rating: v.rating, image: v.image };
  if (v.owned) t.owned = true;
  return t;
}

export function toTileGallery(g: GallerySummary): TileGallery {
  return {
    id: g.id,
    showId: g.showId,
    showName: g.showName,
    showSlug: g.showSlug,
    title: g.title,
    picture_count: g.picture_count,
    price: g.price,
    rating: g.rating,
    image: g.image,
    ...(g.owned ? { owned: true } : {}),
  };
}

export function toTileItems(kind: ListKind, data: unknown[]): ListItem[] {
  if (kind === 'videos') return (data as VideoSummary[]).map(toTileVideo);
  if (kind === 'galleries') return (data as GallerySummary[]).map(toTileGallery);
  return (data as ShowSummary[]).map(toTileShow);
}

/** The items and page fields of ListProps from a paged API answer, each item made a tile. */
export function pageOf<T, I extends ListItem>(r: Paged<T>, tile: (item: T) => I): Pick<ListProps, 'page' | 'lastPage' | 'total'> & { items: I[] } {
  return { items: r.data.map(tile), page: r.current_page, lastPage: r.last_page, total: r.total };
}

export function toPromoLite(p: Promo): PromoLite {
  return { id: p.id, title: p.title, stop: p.stop, show: { id: p.show.id, name: p.show.name, slugName: p.show.slugName } };
}

/** Where a list's items come from: the API path (under /api) and its query without the page. */
export interface ListSource {
  kind: ListKind;
  endpoint: 'shows' | 'search/shows' | 'search/videos' | 'search/galleries' | 'archive/videos' | 'archive/galleries';
  params: Record<string, string>;
  pageSize: number;
}

/**
 * How show tiles link in this list: `${base}/chat/{id}/{slug}` plus `query` (the list's search,
 * for breadcrumbs and prev/next). With `withPage` the item's list page is added, so the show
 * page can find its neighbours in the search order.
 */
export interface TileLinks {
  base: string;
  query: string;
  withPage: boolean;
}

export function showLink(links: TileLinks | undefined, show: { id: number; slugName: string }, page?: number): string {
  const base = links?.base ?? '';
  const q = new URLSearchParams(links?.query ?? '');
  if (links?.withPage && page && page > 1) q.set('page', String(page));
  const qs = q.toString();
  return `${base}/chat/${show.id}/${show.slugName}${qs ? `?${qs}` : ''}`;
}

/** Distance in km with one decimal in the locale's style (no Intl, so server and browser agree). */
export function formatKm(km: number, locale: string): string {
  const text = (Math.round(km * 10) / 10).toFixed(km >= 100 ? 0 : 1);
  return locale === 'de' ? text.replace('.', ',') : text;
}

/** Seconds as m:ss or h:mm:ss. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Show lists fetch everything again when forced or after 10 minutes. */
export const SHOWS_FORCED_REFRESH_MS = 10 * 60_000;

export interface ListFilter {
  /** The cat value, '' for all. */
  value: string;
  label: string;
}

/** Props of the list islands (ShowList for shows, MediaList for videos and galleries). */
export interface ListProps {
  source: ListSource;
  items: ListItem[];
  /** The page `items` are. */
  page: number;
  lastPage: number;
  total: number;
  /** Path and query (keys kept by page links) of the list route. */
  path: string;
  query: string;
  links?: TileLinks;
  /** Promotions strip above the grid (home). */
  promos?: PromoLite[] | null;
  /** Filter chips over the `cat` query key (search). */
  filters?: ListFilter[] | null;
  /** Show the refresh button and run the refresh rules. */
  refresh?: boolean;
  /** false: a fixed preview without paging (search overview). */
  paged?: boolean;
  /** Where video and gallery tiles open (default: nested in the show's address). */
  store?: StoreContext;
}
