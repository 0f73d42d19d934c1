import type { SearchText } from '../../shared/search-names';

// The one ranking of every search by term (quicksearch, /search and its tabs, /api/search/*, the
// prev/next arrows of a show opened from a search): a name match first. Shows rank by their own
// name, videos and galleries by their show's. Fixed SQL with `?` parameters; the repos put the
// fragments into their queries and bind the values in the same order.

export interface SqlFragment {
  sql: string;
  params: string[];
}

/**
 * 0 the name is the term (folded: "frieda blue" is FriedaBlue), 1 the name starts with it,
 * 2 the name contains it, then the `also` tiers in their order, then the rest (`also.length + 3`).
 * `keyColumn` is a shows.name_key column of the query.
 */
export function nameTier(keyColumn: string, text: SearchText, also: SqlFragment[] = []): SqlFragment {
  const whens: string[] = [];
  const params: string[] = [];
  if (text.key) {
    whens.push(`WHEN ${keyColumn} = ? THEN 0`, `WHEN substr(${keyColumn}, 1, length(?)) = ? THEN 1`, `WHEN instr(${keyColumn}, ?) > 0 THEN 2`);
    params.push(text.key, text.key, text.key, text.key);
  }
  also.forEach((f, i) => {
    whens.push(`WHEN ${f.sql} THEN ${i + 3}`);
    params.push(...f.params);
  });
  return whens.length ? { sql: `CASE ${whens.join(' ')} ELSE ${also.length + 3} END`, params } : { sql: '0', params: [] };
}

/** True when a shows.name_key column contains the term (false for a term without a key). */
export function nameContains(keyColumn: string, text: SearchText): SqlFragment {
  return text.key ? { sql: `instr(${keyColumn}, ?) > 0`, params: [text.key] } : { sql: '0', params: [] };
}
