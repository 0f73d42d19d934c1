// The demo contest. Unlike the rest of the demo data its periods follow the real clock (a fixed
// date would be over by the time anyone starts the app): the first seed writes a finished round
// (ended 7 days ago, with its final ranking) and a running one (started 2 days ago, ending 12 days
// after the seed). `npm start` / `npm run seed` roll it on: when no round runs any more, they add a
// new 14-day round (scripts/lib.mjs `seedIfEmpty`), and the one that ended becomes /contest/latest.
//
// Entries are 12 demo shows picked by the round's id; the votes come from demo performer accounts
// (never on their own show) with fixed counts per entry, so every round has a ranking with ties
// (scores 14, 11, 9, 9, 7, 6, 6, 4, 3, 3, 1, 0).

const DAY = 86_400;
export const CONTEST_ROUND_DAYS = 14;
export const CONTEST_ENTRY_COUNT = 12;

const NEWEST = '(SELECT MAX(id) FROM contests)';

/** A round's title, numbered. */
const TITLE = (lang: 'en' | 'de') => `${lang === 'en' ? "'Audience favourite, round '" : "'Publikumsliebling, Runde '"} || ((SELECT COUNT(*) FROM contests) + 1)`;

/** The first, finished round: only into a database without contests. */
const FINISHED_ROUND = `INSERT INTO contests (title_en, title_de, starts_at, ends_at)
  SELECT ${TITLE('en')}, ${TITLE('de')}, ?1 - ${21 * DAY}, ?1 - ${7 * DAY} WHERE NOT EXISTS (SELECT 1 FROM contests)`;

/** A running round, starting 2 days back (not before the last round ended) and ending 12 days ahead. */
const RUNNING_ROUND = `INSERT INTO contests (title_en, title_de, starts_at, ends_at)
  SELECT ${TITLE('en')}, ${TITLE('de')},
    MAX(?1 - ${2 * DAY}, COALESCE((SELECT MAX(ends_at) FROM contests WHERE ends_at <= ?1), 0)), ?1 + ${(CONTEST_ROUND_DAYS - 2) * DAY}
  WHERE NOT EXISTS (SELECT 1 FROM contests WHERE starts_at <= ?1 AND ends_at > ?1)`;

/** The newest round's entries, once. */
const ENTRIES = `INSERT INTO contest_entries (contest_id, show_id)
  SELECT ${NEWEST}, s.id FROM shows s
  WHERE ${NEWEST} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM contest_entries WHERE contest_id = ${NEWEST})
  ORDER BY (s.id * 37 + ${NEWEST} * 53) % 263, s.id LIMIT ${CONTEST_ENTRY_COUNT}`;

/** The score of entry k (1..12 by id): a ranking with three ties (9, 6 and 3 twice each). */
const SCORES = [6, 11, 3, 9, 14, 6, 0, 9, 4, 3, 7, 1];
const SCORE_OF = `CASE e.k ${SCORES.map((v, i) => `WHEN ${i + 1} THEN ${v}`).join(' ')} ELSE 0 END`;

/**
 * The newest round's votes, once: entry k gets its score plus (k mod 3) votes up and (k mod 3)
 * down, from the performers of shows outside the round (numbered by user id).
 */
const VOTES = `INSERT INTO contest_votes (user_id, entry_id, value, updated_at)
  SELECT v.user_id, e.id, CASE WHEN v.n <= ${SCORE_OF} + e.k % 3 THEN 1 ELSE -1 END, ?1
  FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS k FROM contest_entries WHERE contest_id = ${NEWEST}) e
  JOIN (SELECT user_id, ROW_NUMBER() OVER (ORDER BY user_id) AS n FROM performers
        WHERE show_id NOT IN (SELECT show_id FROM contest_entries WHERE contest_id = ${NEWEST})) v
    ON v.n <= ${SCORE_OF} + 2 * (e.k % 3)
  WHERE NOT EXISTS (SELECT 1 FROM contest_votes cv JOIN contest_entries ce ON ce.id = cv.entry_id WHERE ce.contest_id = ${NEWEST})`;

/**
 * The statements that make sure a round runs at `now` (unix seconds), each with `now` as its only
 * parameter: the finished round and its entries and votes (first time only), then a running round
 * with its entries and votes (when none runs). Run in this order; running them again changes nothing.
 */
export function contestSeedStatements(): string[] {
  return [FINISHED_ROUND, ENTRIES, VOTES, RUNNING_ROUND, ENTRIES, VOTES];
}

/** The same as one SQL script with `now` written in (for `wrangler d1 execute --file`). */
export function contestSeedScript(now: number): string {
  const n = String(Math.floor(now));
  return `${contestSeedStatements()
    .map((s) => s.replace(/\?1/g, n))
    .join(';\n')};\n`;
}
