import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { MODERATION_REASON_MAX, MODERATION_REASON_MIN, type LiveAnswer, type ShowStopAnswer } from '../../../shared/moderation';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { addShowStop } from '../../lib/show-stops.repo';
import { validationHook } from '../../lib/validation';
import { syncRoom } from '../chat/chat.service';
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

export const operatorLiveRoutes = new Hono<AppEnv>()
  .use('/live', requireOperator())
  .use('/shows/*', requireOperator())
  .get('/live', async (c) => c.json<LiveAnswer>({ data: await liveShows(c) }))
  .post('/shows/:id{[0-9]{1,9}}/stop', zValidator('json', stopBody, validationHook), async (c) => {
    const id = Number(c.req.param('id'));
    const { reason } = c.req.valid('json');
    const online = await showOnline(c.env.DB, id);
    if (online === null) throw new ApiError(404, 'not_found');
    if (!online) throw new ApiError(409, 'show_not_online');
    const now = nowSeconds();
    await changeShowStatus(c.env, [{ id, online: false }]);
    // The room learns it now: every session ends without another minute, the studio sees offline.
    await syncRoom(c.env, id);
    await addShowStop(c.env.DB, id, reason, c.get('user')!.id, now);
    await audit(c, { action: 'show.stopped', target: `show:${id}`, reason });
    return c.json<ShowStopAnswer>({ id, online: false });
  });
