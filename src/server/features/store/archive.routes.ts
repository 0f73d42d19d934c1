import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ArchiveGalleriesAnswer, ArchiveLatestAnswer, ArchiveVideosAnswer } from '../../../shared/store';
import type { AppEnv } from '../../env';
import { pageParam } from '../../lib/params';
import { validationHook } from '../../lib/validation';
import { requireUser } from '../session/session.service';
import { archiveLatest, archiveList } from './store.service';

const pageQuery = z.object({ page: pageParam });

/** /api/archive: what the member bought (their own rows only). */
export const archiveRoutes = new Hono<AppEnv>()
  .use('/*', requireUser)
  .get('/latest', async (c) => c.json<ArchiveLatestAnswer>(await archiveLatest(c.env.DB, { userId: c.var.member.id, locale: c.get('locale'), hidden: await c.var.hiddenShows() })))
  .get('/videos', zValidator('query', pageQuery, validationHook), async (c) =>
    c.json<ArchiveVideosAnswer>(await archiveList(c.env.DB, { userId: c.var.member.id, kind: 'videos', page: c.req.valid('query').page, locale: c.get('locale'), hidden: await c.var.hiddenShows() })),
  )
  .get('/galleries', zValidator('query', pageQuery, validationHook), async (c) =>
    c.json<ArchiveGalleriesAnswer>(await archiveList(c.env.DB, { userId: c.var.member.id, kind: 'galleries', page: c.req.valid('query').page, locale: c.get('locale'), hidden: await c.var.hiddenShows() })),
  );
