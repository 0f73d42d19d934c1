// The contest (spec part 2, sections 3, 4 and 7): rounds with a period, entries of shows that
// members vote up (1) or down (-1). A member's vote on an entry replaces the earlier one; the
// score is the sum of the votes. Wire types of /api/contest and the ranking rule live here, so
// the server and the island rank the same way.

/** The only vote values (spec section 9). */
export const CONTEST_VOTE_VALUES = [1, -1] as const;
export type ContestVoteValue = (typeof CONTEST_VOTE_VALUES)[number];

/** Error codes of the contest calls (the client translates them as errors.<code>). */
export const CONTEST_ERRORS = {
  /** No round is running: voting outside a period (409). */
  closed: 'contest.closed',
  /** A vote value other than 1 or -1 (422 field error on `value`). */
  voteValue: 'contest.vote_value',
  /** A performer's account voting on their own show's entry (403). */
  ownShow: 'contest.own_show',
  /** The round already counts CONTEST_VOTERS_PER_ADDRESS members from this address (429, Retry-After: the round's end). */
  addressLimit: 'contest.address_limit',
} as const;

/**
 * Members a round counts per client address (an IPv6 address by its /64): a household or an
 * office votes, a pile of throwaway sign-ups from one machine does not. A member's place is where
 * they first voted in the round.
 */
export const CONTEST_VOTERS_PER_ADDRESS = 5;

export interface ContestShow {
  id: number;
  name: string;
  slugName: string;
  online: boolean;
  thumbnail: string;
}

export interface ContestEntry {
  /** The entry id (the {entryId} of POST contest/{entryId}/vote). */
  id: number;
  show: ContestShow;
  score: number;
  /** 1 for the best score; equal scores share a rank (1, 2, 2, 4). */
  rank: number;
}

export interface Contest {
  id: number;
  title: string;
  /** Unix seconds. */
  starts_at: number;
  ends_at: number;
  /** The server's clock (unix seconds) when it answered: the countdown corrects the client's clock by it. */
  now: number;
  /** True while votes are taken (starts_at <= now < ends_at). */
  running: boolean;
  /** Best first: score descending, then entry id. */
  entries: ContestEntry[];
}

export interface ContestVote {
  entry_id: number;
  value: ContestVoteValue;
}

/** GET /api/contest: the running round, or null when none runs (the page shows an empty state). */
export interface ContestAnswer {
  contest: Contest | null;
}

/** GET /api/contest/votes: the asking member's votes in the running round (members only). */
export interface ContestVotesAnswer {
  votes: ContestVote[];
}

/** GET /api/contest/latest: the last finished round with its final ranking, or null. */
export interface ContestLatestAnswer {
  contest: Contest | null;
}

/** GET /api/contest/latest?probe=1: only whether a finished round exists (and which), no entries. */
export interface ContestProbeAnswer {
  available: boolean;
  id: number | null;
  ends_at: number | null;
}

/** POST /api/contest/{entryId}/vote: the stored vote and the ranking after it. */
export interface ContestVoteAnswer {
  vote: ContestVote;
  contest: Contest;
}

/** Entries ordered best first with their competition rank (equal scores share a rank). */
export function rankEntries<T extends { id: number; score: number }>(entries: readonly T[]): (T & { rank: number })[] {
  const sorted = [...entries].sort((a, b) => b.score - a.score || a.id - b.id);
  let rank = 0;
  return sorted.map((e, i) => {
    if (i === 0 || sorted[i - 1].score !== e.score) rank = i + 1;
    return { ...e, rank };
  });
}

/** The ranking after a member changes their vote on one entry from `before` (0: none) to `after`. */
export function applyVote(entries: readonly ContestEntry[], entryId: number, before: number, after: number): ContestEntry[] {
  return rankEntries(entries.map((e) => (e.id === entryId ? { ...e, score: e.score - before + after } : e)));
}

/** Days, hours, minutes and seconds left until `endsAt` (unix seconds) at `nowMs`; all 0 once over. */
export function countdownParts(endsAt: number, nowMs: number): { days: number; hours: number; minutes: number; seconds: number; over: boolean } {
  const left = Math.max(0, Math.floor(endsAt - nowMs / 1000));
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3_600),
    minutes: Math.floor((left % 3_600) / 60),
    seconds: left % 60,
    over: left === 0,
  };
}

/** The login link of the contest page: back to it after logging in. */
export const CONTEST_LOGIN_HREF = '/login?redirect=%2Fcontest';
