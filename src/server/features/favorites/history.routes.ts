import { Hono } from 'hono';
import type { HistoryAnswer } from '../../../shared/favorites';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { withoutHidden } from '../../lib/geo-hidden';
import { requireUser } from '../session/session.service';
import { pathShowId, requireNoBody } from './favorites-params';
import { clearHistory, listHistory, recordVisit } from './history.repo';

/** /api/user/history: the member's visited shows (only their own), newest first. */
export const historyRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => c.json<HistoryAnswer>({ data: withoutHidden(await listHistory(c.env.DB, c.var.member.id), await c.var.hiddenShows(), (h) => h.id) }))
  .delete('/', requireUser, async (c) => {
    await requireNoBody(c);
    return c.json({ ok: true, deleted: await clearHistory(c.env.DB, c.var.member.id) });
  })
  .post('/:showId', requireUser, async (c) => {
    await requireNoBody(c);
    if (!(await recordVisit(c.env.DB, c.var.member.id, pathShowId(c, 'showId'), Date.now()))) throw new ApiError(404, 'not_found');
    return c.json({ ok: true });
  });
