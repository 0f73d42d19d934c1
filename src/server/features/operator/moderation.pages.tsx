import { Hono } from 'hono';
import { LivePage } from '../../../client/features/operator/live-page';
import { WatchPage } from '../../../client/features/operator/watch-page';
import { ModerationPage } from '../../../client/features/operator/moderation-page';
import { OPERATOR_LIVE_PATH, OPERATOR_MODERATION_PATH, operatorWatchPath } from '../../../shared/moderation';
import type { AppEnv } from '../../env';
import { liveShows } from './live-shows';
import { liveShowRows } from './live.repo';
import { reviewQueue, toModerationItem } from './moderation.repo';
import { page } from './operator.pages';
import { RecordsPage } from '../../../client/features/operator/records-page';
import { OPERATOR_RECORDS_PATH } from '../../../shared/records';
import { parsePage } from '../../../shared/pagination';
import { recordsList } from '../applications/records.service';

/**
 * /operator/moderation: the review queue of uploads; /operator/live: the shows online now (issue 29
 * point 2); /operator/records: the approved items with their verified people, and the custodian (point 1).
 */
export const operatorModerationPages = new Hono<AppEnv>()
  .get('/moderation', (c) =>
    page(c, OPERATOR_MODERATION_PATH, c.get('t')('operator.moderation.title'), async () => <ModerationPage items={(await reviewQueue(c.env.DB)).map(toModerationItem)} />),
  )
  .get('/live', (c) => page(c, OPERATOR_LIVE_PATH, c.get('t')('operator.live.title'), async () => <LivePage shows={await liveShows(c)} />))
  // A live show watched unseen (the socket is GET /api/operator/shows/{id}/watch, audited there); an offline show says so.
  .get('/live/:id{[0-9]+}/watch', (c) => {
    const id = Number(c.req.param('id'));
    const title = c.get('t')('operator.watch.title');
    return page(c, operatorWatchPath(id), title, async () => <WatchPage id={id} show={(await liveShowRows(c.env.DB)).find((s) => s.id === id) ?? null} />, ['operator', 'video', 'chat']);
  })
  .get('/records', (c) =>
    page(c, OPERATOR_RECORDS_PATH, c.get('t')('operator.records.title'), async () => <RecordsPage page={await recordsList(c.env.DB, parsePage(c.req.query('page')))} />),
  );
