// Show and category shapes on the wire (spec part 2 section 3) and their pure rules.
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

export function showImageSrc(showId: number, index: number): string {
  return `/img/show/${showId}/${index}.svg`;
}
