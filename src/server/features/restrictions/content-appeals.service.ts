import type { z } from 'zod';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import type { contentAppealSchema } from '../../../shared/restrictions';
import { contentAppealExists, decideContentAppealRow, hasOpenContentAppeal, insertContentAppeal, openContentAppeals, type DecidedContentAppeal, type OpenContentAppeal } from './content-appeals.repo';

// Appeals against a removed or refused upload (issue 29 point 3: every restriction, a removal
// too, offers an appeal): the performer appeals from the studio, an operator upholds the decision
// or reinstates the item.

/** Files the performer's appeal (404: not a rejected item of this show; 409: one is open already). */
export async function fileContentAppeal(env: Bindings, showId: number, userId: number, input: z.infer<typeof contentAppealSchema>): Promise<number> {
  const id = await insertContentAppeal(env.DB, input.kind, input.id, showId, userId, input.text, nowSeconds());
  if (id !== null) return id;
  throw (await hasOpenContentAppeal(env.DB, input.kind, input.id)) ? new ApiError(409, 'appeal_open') : new ApiError(404, 'not_found');
}

export const contentAppealQueue = (db: D1Database): Promise<OpenContentAppeal[]> => openContentAppeals(db, 100);

/** Decides an open appeal once (409 already_decided, 404 unknown); reinstated approves the item again. */
export async function decideContentAppeal(env: Bindings, operatorId: number, id: number, outcome: 'upheld' | 'reinstated', answer: string): Promise<DecidedContentAppeal> {
  const decided = await decideContentAppealRow(env.DB, id, outcome, answer, operatorId, nowSeconds());
  if (decided) return decided;
  throw (await contentAppealExists(env.DB, id)) ? new ApiError(409, 'already_decided') : new ApiError(404, 'not_found');
}
