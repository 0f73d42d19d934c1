import type { z } from 'zod';
import type { ContentAppealOutcome, contentAppealSchema, ContentKind, OpenContentAppeal } from '../../../shared/restrictions';
import { mediaUrl } from '../../../shared/store';
import { clipHref, picturesHref } from '../../../shared/store-links';
import type { Appealable, ReviewState } from '../../../shared/uploads';
import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { mailContentAppealDecision } from './content-appeal-mail';
import { blockingContentAppeal, contentAppealRow, decideContentAppealRow, insertContentAppeal, latestContentAppeals, openContentAppeals, type DecidedContentAppeal } from './content-appeals.repo';

// Appeals against a removed or refused upload (issue 29 point 3: every restriction, a removal
// too, offers an appeal): the performer appeals from the studio, an operator upholds the decision
// or reinstates the item, and the performer is mailed the outcome with the operator's answer.

/** Files the performer's appeal (404: not a rejected item of this show; 409: one is open, or one was upheld). */
export async function fileContentAppeal(env: Bindings, showId: number, userId: number, input: z.infer<typeof contentAppealSchema>): Promise<number> {
  const id = await insertContentAppeal(env.DB, input.kind, input.id, showId, userId, input.text, nowSeconds());
  if (id !== null) return id;
  const blocking = await blockingContentAppeal(env.DB, input.kind, input.id);
  throw blocking === 'open' ? new ApiError(409, 'appeal_open') : blocking === 'upheld' ? new ApiError(409, 'appeal_decided') : new ApiError(404, 'not_found');
}

/** The open appeals, oldest first, with where an operator opens the item (unapproved items are visible to operators). */
export async function contentAppealQueue(db: D1Database): Promise<OpenContentAppeal[]> {
  const now = nowSeconds();
  return (await openContentAppeals(db, 100)).map(({ show_slug, ...r }) => ({
    ...r,
    age: Math.max(0, now - r.created_at),
    preview_url: r.kind === 'video' ? mediaUrl.preview(r.item_id, 1) : mediaUrl.picture(r.item_id, 1, 'thumb'),
    page_url: r.kind === 'video' ? clipHref({ id: r.item_id, show_id: r.show_id, showSlug: show_slug }) : picturesHref({ id: r.item_id, showId: r.show_id, showSlug: show_slug }),
  }));
}

/**
 * Decides an open appeal once (409 already_decided, 404 unknown, 409 no_performer_records for a
 * reinstatement of an item without its people's record); reinstated approves the item again. The
 * performer who appealed is mailed the outcome.
 */
export async function decideContentAppeal(env: Bindings, operatorId: number, id: number, outcome: ContentAppealOutcome, answer: string): Promise<DecidedContentAppeal> {
  const decided = await decideContentAppealRow(env.DB, id, outcome, answer, operatorId, nowSeconds());
  if (!decided) {
    const row = await contentAppealRow(env.DB, id);
    if (!row) throw new ApiError(404, 'not_found');
    throw row.decided_at !== null ? new ApiError(409, 'already_decided') : new ApiError(409, 'no_performer_records');
  }
  await mailContentAppealDecision(env, decided, outcome, answer);
  return decided;
}

interface ListedItem {
  id: number;
  review: ReviewState;
}

/**
 * The studio's list of the show's items with each one's appeal: the latest, unless the item was
 * removed again after a reinstatement (then none, and a new one may be filed).
 */
export async function withContentAppeals<V extends ListedItem, G extends ListedItem>(db: D1Database, showId: number, items: { videos: V[]; galleries: G[] }): Promise<{ videos: (V & Appealable)[]; galleries: (G & Appealable)[] }> {
  const latest = await latestContentAppeals(db, showId);
  const add = <T extends ListedItem>(kind: ContentKind, x: T): T & Appealable => {
    const found = latest.get(`${kind}:${x.id}`) ?? null;
    const stale = found?.state === 'reinstated' && x.review === 'rejected';
    const appeal = stale ? null : found;
    return { ...x, appeal, can_appeal: x.review === 'rejected' && appeal === null };
  };
  return { videos: items.videos.map((v) => add('video', v)), galleries: items.galleries.map((g) => add('gallery', g)) };
}
