// Geo-blocking (issue 30 point 3): the shows hidden from the request's place (Variables.hiddenShows)
// kept out of queries and answers.

/** A WHERE condition keeping `column` (a show id) out of `hidden`: one bound JSON parameter. */
export function notHiddenSql(column: string, hidden: readonly number[] | undefined): { sql: string; params: string[] } | null {
  return hidden && hidden.length ? { sql: `${column} NOT IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(hidden)] } : null;
}

/** The entries of a list whose show is not hidden. */
export function withoutHidden<T>(list: T[], hidden: readonly number[], showOf: (item: T) => number): T[] {
  if (hidden.length === 0) return list;
  const set = new Set(hidden);
  return list.filter((item) => !set.has(showOf(item)));
}
