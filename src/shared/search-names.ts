import { ftsQuery } from './shows';

// Finding a performer by name. A show's name is kept folded in shows.name_key (migration 0020,
// kept current by triggers on every insert and name change): ASCII-lowercased, the letters below
// folded to plain ASCII and the characters of NAME_KEY_DROP removed, so "FriedaBlue", "frieda blue",
// "Frieda-Blue" and "friedablue" all have the key "friedablue", and "Zoë" / "zoe" both "zoe".
// The migration's SQL and nameKey() apply exactly these tables (tests/unit/search-names.test.ts
// checks the migration against them), so a folded query compares with the stored key.

/** Each key's letters become the key (both cases; Latin-1 and Latin Extended-A, and ș ț). */
export const NAME_FOLDS: Readonly<Record<string, string>> = {
  a: 'ÀÁÂÃÄÅàáâãäåĀāĂăĄą',
  ae: 'Ææ',
  c: 'ÇçĆćĈĉĊċČč',
  d: 'ĎďĐđÐð',
  e: 'ÈÉÊËèéêëĒēĔĕĖėĘęĚě',
  g: 'ĜĝĞğĠġĢģ',
  h: 'ĤĥĦħ',
  i: 'ÌÍÎÏìíîïĨĩĪīĬĭĮįİı',
  ij: 'Ĳĳ',
  j: 'Ĵĵ',
  k: 'Ķķĸ',
  l: 'ĹĺĻļĽľĿŀŁł',
  n: 'ÑñŃńŅņŇňŉŊŋ',
  o: 'ÒÓÔÕÖòóôõöŌōŎŏŐőØø',
  oe: 'Œœ',
  r: 'ŔŕŖŗŘř',
  s: 'ŚśŜŝŞşŠšȘșſ',
  ss: 'ß',
  t: 'ŢţŤťȚțŦŧ',
  th: 'Þþ',
  u: 'ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲų',
  w: 'Ŵŵ',
  y: 'ÝýÿŶŷŸ',
  z: 'ŹźŻżŽž',
};

/**
 * Dropped from a key: white space, ASCII punctuation, common typographic punctuation and the
 * combining accents a decomposed name would carry ("o" + U+0308).
 */
export const NAME_KEY_DROP =
  ' \t\n\r!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~' +
  '\u00a0¡¿«»·×÷‐‑‒–—―‘’‚“”„•…‹›' +
  '\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c\u0323\u0327\u0328';

/** The longest key a query is compared with (a name key is never this long). */
export const NAME_KEY_MAX = 100;

const FOLD = new Map<string, string>();
for (const [to, from] of Object.entries(NAME_FOLDS)) for (const ch of from) FOLD.set(ch, to);
for (const ch of NAME_KEY_DROP) FOLD.set(ch, '');

/**
 * The folded key of a name, the same as the migration's SQL computes: SQLite's lower() changes
 * only A-Z, so this does too; every other character is folded by the tables or kept as it is.
 */
export function nameKey(name: string): string {
  let out = '';
  for (const ch of name) {
    const lower = ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
    out += FOLD.get(lower) ?? lower;
  }
  return out;
}

/** What a search term is matched with: its FTS5 expression and its folded name key. */
export interface SearchText {
  fts: string;
  /** Folded like shows.name_key; may be '' (then only the FTS expression applies). */
  key: string;
}

/** A search term made ready for the show, video and gallery searches; null when it has no words. */
export function searchText(input: string | null | undefined): SearchText | null {
  const fts = ftsQuery(input);
  if (!fts) return null;
  return { fts, key: nameKey((input ?? '').slice(0, 200).normalize('NFC')).slice(0, NAME_KEY_MAX) };
}
