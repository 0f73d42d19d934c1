import type { Locale } from '../../../shared/constants';
import { rankEntries, type Contest, type ContestEntry, type ContestVote, type ContestVoteValue } from '../../../shared/contest';
import { showImageSrc } from '../../../shared/shows';

// All SQL of the contest. A round "runs" while starts_at <= now < ends_at; when rounds overlap,
// the one that started last is the running one. Scores are summed from the votes on every read
// (a dozen entries with an index on (entry_id, value)): nothing to keep in step when a vote is
// replaced.

interface ContestRow {
  id: number;
  title_en: string;
  title_de: string;
  starts_at: number;
  ends_at: number;
}

interface EntryRow {
  id: number;
  show_id: number;
  name: string;
  slug_name: string;
  online: number;
  score: number;
}

const RUNNING = 'SELECT id, title_en, title_de, starts_at, ends_at FROM contests WHERE starts_at <= ?1 AND ends_at > ?1 ORDER BY starts_at DESC, id DESC LIMIT 1';
const LATEST = 'SELECT id, title_en, title_de, starts_at, ends_at FROM contests WHERE ends_at <= ?1 ORDER BY ends_at DESC, id DESC LIMIT 1';
const ENTRIES = `SELECT e.id, e.show_id, s.name, s.slug_name, s.online, COALESCE(SUM(v.value), 0) AS score
  FROM contest_entries e JOIN shows s ON s.id = e.show_id LEFT JOIN contest_votes v ON v.entry_id = e.id
  WHERE e.contest_id = ? GROUP BY e.id`;

const toEntry = (r: EntryRow): Omit<ContestEntry, 'rank'> => ({
  id: r.id,
  show: { id: r.show_id, name: r.name, slugName: r.slug_name, online: r.online === 1, thumbnail: showImageSrc(r.show_id, 1) },
  score: r.score,
});

async function withEntries(db: D1Database, row: ContestRow, locale: Locale, now: number): Promise<Contest> {
  const { results } = await db.prepare(ENTRIES).bind(row.id).all<EntryRow>();
  return {
    id: row.id,
    title: locale === 'de' ? row.title_de : row.title_en,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    now,
    running: row.starts_at <= now && now < row.ends_at,
    entries: rankEntries(results.map(toEntry)),
  };
}

/** The running round with its ranking, or null. */
export async function runningContest(db: D1Database, locale: Locale, now: number): Promise<Contest | null> {
  const row = await db.prepare(RUNNING).bind(now).first<ContestRow>();
  return row ? withEntries(db, row, locale, now) : null;
}

/** The last finished round with its final ranking, or null. */
export async function latestContest(db: D1Database, locale: Locale, now: number): Promise<Contest | null> {
  const row = await db.prepare(LATEST).bind(now).first<ContestRow>();
  return row ? withEntries(db, row, locale, now) : null;
}

/** Which round finished last (id and end), without its entries. */
export async function latestContestId(db: D1Database, now: number): Promise<{ id: number; ends_at: number } | null> {
  return db.prepare('SELECT id, ends_at FROM contests WHERE ends_at <= ?1 ORDER BY ends_at DESC, id DESC LIMIT 1').bind(now).first<{ id: number; ends_at: number }>();
}

/** The member's own votes on the entries of the running round (only ever their own rows). */
export async function memberVotes(db: D1Database, userId: number, now: number): Promise<ContestVote[]> {
  const { results } = await db
    .prepare(
      `SELECT v.entry_id, v.value FROM contest_votes v JOIN contest_entries e ON e.id = v.entry_id
       WHERE v.user_id = ?1 AND e.contest_id = (SELECT id FROM (${RUNNING.replace(/\?1/g, '?2')})) ORDER BY v.entry_id`,
    )
    .bind(userId, now)
    .all<{ entry_id: number; value: ContestVoteValue }>();
  return results.map((r) => ({ entry_id: r.entry_id, value: r.value }));
}

/** Who votes: the member, the show they perform in (their own entry is not theirs to vote on), their address. */
export interface Voter {
  userId: number;
  performerShow: number | null;
  /** The client address (an IPv6 address by its /64), whose accounts a round counts only up to `perAddress`. */
  address: string;
  perAddress: number;
}

/** The running round's entry `?2`, unless it is the voter's own show (`?5`); `?4` is now. */
const VOTABLE_ENTRY = `SELECT e.id, e.contest_id FROM contest_entries e
  WHERE e.id = ?2 AND e.show_id IS NOT ?5 AND e.contest_id = (SELECT id FROM (${RUNNING.replace(/\?1/g, '?4')}))`;

/**
 * The member's vote on an entry of the running round, in one transaction: first the member takes
 * their place among the round's voters (once per round, only while their address has fewer than
 * `perAddress` voters: the count and the INSERT are one statement, exact under a burst), then the
 * UPSERT on (user_id, entry_id) writes only for a member who has a place. The period check and the
 * write cannot be separated by another request, so a vote replaces the member's earlier one and
 * parallel votes leave exactly one row. Null when nothing was written (the entry is unknown, of
 * another round, the voter's own show, no round runs, or the address has no place left).
 */
export async function upsertVote(db: D1Database, voter: Voter, entryId: number, value: ContestVoteValue, now: number): Promise<ContestVote | null> {
  const [, vote] = await db.batch<{ entry_id: number; value: ContestVoteValue }>([
    db
      .prepare(
        `INSERT INTO contest_voters (contest_id, user_id, address, created_at)
         SELECT e.contest_id, ?1, ?3, ?4 FROM (${VOTABLE_ENTRY}) e
         WHERE (SELECT COUNT(*) FROM contest_voters v WHERE v.contest_id = e.contest_id AND v.address = ?3) < ?6
         ON CONFLICT (contest_id, user_id) DO NOTHING`,
      )
      .bind(voter.userId, entryId, voter.address, now, voter.performerShow, voter.perAddress),
    db
      .prepare(
        `INSERT INTO contest_votes (user_id, entry_id, value, updated_at)
         SELECT ?1, e.id, ?3, ?4 FROM (${VOTABLE_ENTRY}) e
         WHERE EXISTS (SELECT 1 FROM contest_voters v WHERE v.contest_id = e.contest_id AND v.user_id = ?1)
         ON CONFLICT (user_id, entry_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
         RETURNING entry_id, value`,
      )
      .bind(voter.userId, entryId, value, now, voter.performerShow),
  ]);
  const row = vote.results[0];
  return row ? { entry_id: row.entry_id, value: row.value } : null;
}

/**
 * Why a vote wrote nothing: whether the entry is known, whether a round runs, whether the entry is
 * in the running round, and whether it is the voter's own show; when the running round ends.
 */
export async function voteRefusal(
  db: D1Database,
  entryId: number,
  performerShow: number | null,
  now: number,
): Promise<{ known: boolean; running: boolean; current: boolean; own: boolean; endsAt: number | null }> {
  const row = await db
    .prepare(
      `WITH r AS (${RUNNING.replace(/\?1/g, '?2')})
       SELECT EXISTS (SELECT 1 FROM contest_entries WHERE id = ?1) AS known, (SELECT ends_at FROM r) AS ends_at,
         EXISTS (SELECT 1 FROM contest_entries WHERE id = ?1 AND contest_id = (SELECT id FROM r)) AS current,
         EXISTS (SELECT 1 FROM contest_entries WHERE id = ?1 AND show_id IS ?3) AS own`,
    )
    .bind(entryId, now, performerShow)
    .first<{ known: number; ends_at: number | null; current: number; own: number }>();
  const endsAt = row?.ends_at ?? null;
  return { known: row?.known === 1, running: endsAt !== null, current: row?.current === 1, own: row?.own === 1, endsAt };
}
