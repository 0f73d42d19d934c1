import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MODERATION_REASON_MAX, MODERATION_REASON_MIN, type LiveAnswer, type ShowStopAnswer } from '../../../shared/moderation';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { addShowStop } from '../../lib/show-stops.repo';
import { validationHook } from '../../lib/validation';
import { socketOriginAllowed } from '../../lib/origin';
import { syncRoom, watchRoom, watcherIce } from '../chat/chat.service';
import { changeShowStatus } from '../shows/shows.service';
import { liveShows } from './live-shows';
import { showOnline } from './live.repo';
import { audit, requireOperator } from './operator.service';

// /api/operator/live and /api/operator/shows/{id}/stop (issue 29 point 2): the shows online now
// with their rooms' viewers, and an operator stopping one with a reason: offline at once, every
// session in its room ended as when the performer goes offline (no further minute), the reason
// kept for the performer's studio and the audit trail.

const stopBody = z.object({
  reason: z.string({ message: 'reason_required' }).trim().min(MODERATION_REASON_MIN, 'reason_too_short').max(MODERATION_REASON_MAX, 'reason_too_long'),
});

/** A hidden watcher's id in its show's room (chat/room/watch.ts: the prefix and a UUID). */
const iceQuery = z.object({ sid: z.string({ message: 'invalid' }).regex(/^watch-[0-9a-f-]{36}$/, 'invalid') });

/** The show by its id in the path: 404 unknown, 409 not online. */
async function onlineShow(c: Context<AppEnv>): Promise<number> {
  const id = Number(c.req.param('id'));
  const online = await showOnline(c.env.DB, id);
  if (online === null) throw new ApiError(404, 'not_found');
  if (!online) throw new ApiError(409, 'show_not_online');
  return id;
}

export const operatorLiveRoutes = new Hono<AppEnv>()
  .use('/live', requireOperator())
  .use('/shows/*', requireOperator())
  .get('/live', async (c) => c.json<LiveAnswer>({ data: await liveShows(c) }))
  // GET /api/operator/shows/{id}/watch (a WebSocket): an operator watching a live show unseen and
  // unbilled: the show room's hidden watcher (chat/room/watch.ts); each start is in the audit trail.
  .get('/shows/:id{[0-9]{1,9}}/watch', async (c) => {
    if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(426, 'upgrade_required');
    if (!socketOriginAllowed(c)) throw new ApiError(403, 'origin_forbidden');
    const id = await onlineShow(c);
    const res = await watchRoom(c.env, id, c.get('user')!.id, c.get('loginId'), c.req.raw.headers);
    if (res.status === 409) throw new ApiError(409, 'show_not_online');
    await audit(c, { action: 'show.watched', target: `show:${id}` });
    return res;
  })
  // GET /api/operator/shows/{id}/watch/ice?sid=: the ICE servers for that watcher's video (403 while it receives none).
  .get('/shows/:id{[0-9]{1,9}}/watch/ice', zValidator('query', iceQuery, validationHook), async (c) => {
    c.header('Cache-Control', 'no-store');
    const answer = await watcherIce(c.env, Number(c.req.param('id')), c.req.valid('query').sid).catch(() => 'unavailable' as const);
    if (answer === 'unavailable') throw new ApiError(503, 'video.unavailable');
    if (!answer) throw new ApiError(403, 'video.not_permitted');
    return c.json(answer);
  })
  .post('/shows/:id{[0-9]{1,9}}/stop', zValidator('json', stopBody, validationHook), async (c) => {
    const { reason } = c.req.valid('json');
    const id = await onlineShow(c);
    const now = nowSeconds();
    await changeShowStatus(c.env, [{ id, online: false }]);
    // The room learns it now: every session ends without another minute, the studio sees offline.
    await syncRoom(c.env, id);
    await addShowStop(c.env.DB, id, reason, c.get('user')!.id, now);
    await audit(c, { action: 'show.stopped', target: `show:${id}`, reason });
    return c.json<ShowStopAnswer>({ id, online: false });
  });
