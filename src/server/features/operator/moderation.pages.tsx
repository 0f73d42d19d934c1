import { Hono } from 'hono';
import { ModerationPage } from '../../../client/features/operator/moderation-page';
import { OPERATOR_MODERATION_PATH } from '../../../shared/moderation';
import type { AppEnv } from '../../env';
import { reviewQueue, toModerationItem } from './moderation.repo';
import { page } from './operator.pages';

/** /operator/moderation: the review queue of uploads (issue 29 point 2). */
export const operatorModerationPages = new Hono<AppEnv>().get('/moderation', (c) =>
  page(c, OPERATOR_MODERATION_PATH, c.get('t')('operator.moderation.title'), async () => <ModerationPage items={(await reviewQueue(c.env.DB)).map(toModerationItem)} />),
);
