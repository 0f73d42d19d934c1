import { proxy } from 'valtio';
import { applyVote, type Contest, type ContestVote, type ContestVoteAnswer, type ContestVoteValue } from '../../../shared/contest';
import { api, ApiFailure } from '../../lib/api';

// The contest board's state: one Valtio proxy per island instance (created from the SSR props, so
// the server never shares a proxy between requests). A vote changes the ranking at once
// (optimistic), then takes the server's ranking; a refused vote puts the earlier state back.
// Component-local on purpose, not a slice of the root store: it is made from the island's props,
// only this island reads it, and it dies with it (docs/architecture.md "One state pattern").

export interface ContestBoardState {
  contest: Contest | null;
  /** The member's votes by entry id. */
  votes: Record<number, ContestVoteValue>;
  /** Entry ids with a vote on the way. */
  pending: Record<number, true>;
  /** The last refusal's error code, or null. */
  error: string | null;
  /** The round ended while the page was open (the countdown reached 0 or the server said closed). */
  closed: boolean;
  /** The entry of the member's last counted vote (announced to screen readers), or null. */
  lastVoted: number | null;
}

export function createContestState(contest: Contest | null, votes: readonly ContestVote[]): ContestBoardState {
  const byEntry: Record<number, ContestVoteValue> = {};
  if (contest) for (const v of votes) byEntry[v.entry_id] = v.value;
  return proxy<ContestBoardState>({ contest, votes: byEntry, pending: {}, error: null, closed: contest ? !contest.running : false, lastVoted: null });
}

/** The member votes `value` on an entry; voting the value they already gave changes nothing. */
export async function vote(state: ContestBoardState, entryId: number, value: ContestVoteValue): Promise<void> {
  const contest = state.contest;
  if (!contest || state.closed || state.pending[entryId]) return;
  const before: number = (state.votes[entryId] as ContestVoteValue | undefined) ?? 0;
  if (before === value) return;
  const entries = contest.entries;
  state.error = null;
  state.pending[entryId] = true;
  state.votes[entryId] = value;
  contest.entries = applyVote(entries, entryId, before, value);
  try {
    // A refusal (e-mail not confirmed, the performer's own show) is said on the board, not by leaving the page.
    const res = await api().post<ContestVoteAnswer>(`contest/${entryId}/vote`, { value }, { explains403: true });
    state.votes[res.vote.entry_id] = res.vote.value;
    // Other members' votes came in meanwhile: the server's ranking is the truth.
    if (state.contest?.id === res.contest.id) state.contest.entries = res.contest.entries;
    state.lastVoted = res.vote.entry_id;
  } catch (e) {
    if (before === 0) delete state.votes[entryId];
    else state.votes[entryId] = before as ContestVoteValue;
    if (state.contest) state.contest.entries = entries;
    const code = e instanceof ApiFailure ? (e.status === 0 ? 'network_error' : e.message) : 'unknown_error';
    if (code === 'contest.closed') state.closed = true;
    state.error = code;
  } finally {
    delete state.pending[entryId];
  }
}
