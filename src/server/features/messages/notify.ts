import type { Bindings } from '../../env';
import { publishToUser } from '../../realtime/shards';
import { memberCounts, performerUserOf } from './conversations.repo';
import { operatorIds, sideUnread } from './inbox.repo';

// Live unread counts (issue 14): after a new message, a read or a block, the member's count goes
// to every open page of the member as user:mc, and the other side's count to the performer of the
// show (side studio) or to every operator (side support). Failures are only lost pushes: the
// 60 s poll catches up.

export async function pushMemberCount(env: Bindings, userId: number): Promise<void> {
  const counts = await memberCounts(env.DB, userId);
  await publishToUser(env, userId, { type: 'user:mc', count: counts.all });
}

/** showId 0: the operators' support count. */
export async function pushSideCount(env: Bindings, showId: number): Promise<void> {
  const count = await sideUnread(env.DB, showId);
  if (showId === 0) {
    const ids = await operatorIds(env.DB);
    await Promise.all(ids.map((id) => publishToUser(env, id, { type: 'user:mc', count, side: 'support' })));
    return;
  }
  const performer = await performerUserOf(env.DB, showId);
  if (performer !== null) await publishToUser(env, performer, { type: 'user:mc', count, side: 'studio' });
}

/** Both sides of a conversation, without failing the request that changed it. */
export function pushCounts(env: Bindings, userId: number | null, showId: number | null): Promise<unknown> {
  return Promise.all([
    userId === null ? null : pushMemberCount(env, userId).catch(() => undefined),
    showId === null ? null : pushSideCount(env, showId).catch(() => undefined),
  ]);
}
