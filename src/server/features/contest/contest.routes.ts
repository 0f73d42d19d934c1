import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CONTEST_ERRORS, type ContestAnswer, type ContestLatestAnswer, type ContestProbeAnswer, type ContestVoteAnswer, type ContestVotesAnswer } from '../../../shared/contest';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { requireUser } from '../session/session.service';
import { latestContest, latestContestId, memberVotes, runningContest, upsertVote, voteRefusal } from './contest.repo';

// /api/contest (spec part 2, section 7 "Contest"). The ranking is public; votes are the member's
// own: read and written only under the session's user id, never an id from the request.

/** Exactly 1 or -1 (a number: "1", 2, 0, true are refused). */
const voteSchema = z.object({ value: z.union([z.literal(1), z.literal(-1)], { message: CONTEST_ERRORS.voteValue }) });

/** A path id of 1 to 9 digits, else null (answered as 404, never a 5xx). */
function entryIdOf(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

const noStore = (c: Context<AppEnv>) => c.header('Cache-Control', 'no-store');

export const contestRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    noStore(c);
    return c.json<ContestAnswer>({ contest: await runningContest(c.env.DB, c.get('locale'), nowSeconds()) });
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
    return c.json<ContestLatestAnswer>({ contest: await latestContest(c.env.DB, c.get('locale'), now) });
  })
  .post('/:entryId/vote', requireUser, zValidator('json', voteSchema, validationHook), async (c) => {
    noStore(c);
    const entryId = entryIdOf(c.req.param('entryId'));
    if (entryId === null) throw new ApiError(404, 'not_found');
    const { value } = c.req.valid('json');
    const db = c.env.DB;
    const now = nowSeconds();
    const vote = await upsertVote(db, c.var.member.id, entryId, value, now);
    if (!vote) {
      const why = await voteRefusal(db, entryId, now);
      // A known entry while no round runs: voting is closed. Unknown, or another round's: 404.
      if (why.known && !why.running) throw new ApiError(409, CONTEST_ERRORS.closed);
      throw new ApiError(404, 'not_found');
    }
    const contest = await runningContest(db, c.get('locale'), now);
    // The round ended between the two statements: the vote counted; answer the closed state.
    if (!contest) throw new ApiError(409, CONTEST_ERRORS.closed);
    return c.json<ContestVoteAnswer>({ vote, contest });
  });
