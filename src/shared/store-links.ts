// Where the store's pages live (issue 13): a video or gallery opens in the context it was listed
// in (the store, a search, a show), so its breadcrumbs lead back there.

/** store: /videos, /galleries; search: /search/...; show: nested in the show page's address. */
export type StoreContext = 'store' | 'search' | 'show';

interface VideoRef {
  id: number;
  show_id: number;
  showSlug: string;
}
interface GalleryRef {
  id: number;
  showId: number;
  showSlug: string;
}

export function clipHref(v: VideoRef, ctx: StoreContext = 'show', part?: number): string {
  const tail = part && part > 1 ? `/${part}` : '';
  if (ctx === 'store') return `/videos/clip/${v.id}${tail}`;
  if (ctx === 'search') return `/search/videos/clip/${v.id}${tail}`;
  return `/chat/${v.show_id}/${v.showSlug}/videos/${v.id}${tail}`;
}

export function picturesHref(g: GalleryRef, ctx: StoreContext = 'show'): string {
  if (ctx === 'store') return `/galleries/pictures/${g.showId}/${g.id}`;
  if (ctx === 'search') return `/search/galleries/pictures/${g.showId}/${g.id}`;
  return `/chat/${g.showId}/${g.showSlug}/galleries/${g.id}`;
}

/** A show's videos and galleries in the store. */
export const showVideosHref = (s: { id: number; slugName: string }) => `/chat/${s.id}/${s.slugName}/videos`;
export const showGalleriesHref = (s: { id: number; slugName: string }) => `/chat/${s.id}/${s.slugName}/galleries`;
