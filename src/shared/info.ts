/** The info pages' routes (path = key) with each page's i18n key. */
export const INFO_PAGES = {
  contact: 'contact',
  complaints: 'complaints',
  faq: 'faq',
  terms: 'terms',
  privacy_policy: 'privacy_policy',
  refund: 'refund',
  usc2257: 'usc2257',
  camgirl_werden: 'camgirl_werden',
  special: 'special',
  xmas: 'xmas',
} as const;

export type InfoPageKey = keyof typeof INFO_PAGES;

export interface InfoSection {
  id: string;
  heading: string;
  paragraphs?: string[];
  list?: string[];
  qa?: { q: string; a: string }[];
}

export interface InfoContent {
  title: string;
  lead: string;
  sections: InfoSection[];
}
