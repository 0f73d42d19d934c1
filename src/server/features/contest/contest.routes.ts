import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CONTEST_ERRORS, CONTEST_VOTERS_PER_ADDRESS, type ContestAnswer, type ContestLatestAnswer, type ContestProbeAnswer, type ContestVoteAnswer, type ContestVotesAnswer } from '../../../shared/contest';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { perAddress } from '../../lib/limits';
import { validationHook } from '../../lib/validation';
import { withoutHidden } from '../../lib/geo-hidden';
import { clientIp, requireUser, requireVerified } from '../session/session.service';
import { latestContest, latestContestId, memberVotes, runningContest, upsertVote, voteRefusal } from './contest.repo';

// /api/contest (spec part 2, section 7 "Contest"). The ranking is public; votes are the member's
// own: read and written only under the session's user id, never an id from the request. Only
// verified members vote, never on their own show, and a round counts a few members per address.

/** Exactly 1 or -1 (a number: "1", 2, 0, true are refused). */
const voteSchema = z.object({ value: z.union([z.literal(1), z.literal(-1)], { message: CONTEST_ERRORS.voteValue }) });

/** A path id of 1 to 9 digits, else null (answered as 404, never a 5xx). */
function entryIdOf(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/**
 * The address a voter counts against: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber gets a whole /64, so single addresses in it are free to make).
 */
export function voterAddress(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** A round without the entries of shows hidden from the asker's place (geo-blocking). */
export function withoutHiddenEntries<T extends { entries: { show: { id: number } }[] }>(contest: T | null, hidden: readonly number[]): T | null {
  return contest && hidden.length ? { ...contest, entries: withoutHidden(contest.entries, hidden, (e) => e.show.id) } : contest;
}

const noStore = (c: Context<AppEnv>) => c.header('Cache-Control', 'no-store');

export const contestRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    noStore(c);
    return c.json<ContestAnswer>({ contest: withoutHiddenEntries(await runningContest(c.env.DB, c.get('locale'), nowSeconds()), await c.var.hiddenShows()) });
  })
  .get('/votes', requireUser, async (c) => {
    noStore(c);
    return c.json<ContestVotesAnswer>({ votes: await memberVotes(c.env.DB, c.var.member.id, nowSeconds()) });
  })
  // ?probe=1 answers only whether a finished round exists (for a link), without its ranking.
  .get('/latest', async (c) => {
    noStore(c);
    const now = nowSeconds();
    if (c.req.query('probe') === '1') {
      const latest = await latestContestId(c.env.DB, now);
      return c.json<ContestProbeAnswer>({ available: latest !== null, id: latest?.id ?? null, ends_at: latest?.ends_at ?? null });
    }
    return c.json<ContestLatestAnswer>({ contest: withoutHiddenEntries(await latestContest(c.env.DB, c.get('locale'), now), await c.var.hiddenShows()) });
  })
  .post('/:entryId/vote', requireUser, requireVerified, zValidator('json', voteSchema, validationHook), async (c) => {
    noStore(c);
    const entryId = entryIdOf(c.req.param('entryId'));
    if (entryId === null) throw new ApiError(404, 'not_found');
    const { value } = c.req.valid('json');
    const db = c.env.DB;
    const now = nowSeconds();
    const member = c.var.member;
    const voter = { userId: member.id, performerShow: member.performer_show, address: voterAddress(clientIp(c)), perAddress: perAddress(c.env, CONTEST_VOTERS_PER_ADDRESS) };
    const vote = await upsertVote(db, voter, entryId, value, now);
    if (!vote) {
      const why = await voteRefusal(db, entryId, member.performer_show, now);
      // A known entry while no round runs: voting is closed. Unknown, or another round's: 404.
      if (why.known && !why.running) throw new ApiError(409, CONTEST_ERRORS.closed);
      if (!why.current || why.endsAt === null) throw new ApiError(404, 'not_found');
      if (why.own) throw new ApiError(403, CONTEST_ERRORS.ownShow);
      // An entry of the running round, not their own: the member's address has no place left in it.
      throw new ApiError(429, CONTEST_ERRORS.addressLimit, undefined, { 'Retry-After': String(Math.max(1, why.endsAt - now)) });
    }
    const contest = await runningContest(db, c.get('locale'), now);
    // The round ended between the two statements: the vote counted; answer the closed state.
    if (!contest) throw new ApiError(409, CONTEST_ERRORS.closed);
    return c.json<ContestVoteAnswer>({ vote, contest });
  });
