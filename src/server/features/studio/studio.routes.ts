import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { currentShowStop } from '../../lib/show-stops.repo';
import { ApiError } from '../../lib/errors';
import { showEarnings } from '../../lib/ledger.repo';
import { signRoomToken } from '../../lib/room-token';
import { validationHook } from '../../lib/validation';
import type { ChatShowRow } from '../chat/chat.repo';
import { chatShow, realmOf, roomOf, showConf, showStatusOf, updateSwitches } from '../chat/chat.service';
import { changeShowStatus } from '../shows/shows.service';
import { inviteCoPerformer, showInvites, verifiedPeople } from '../applications/records.service';
import { inviteSchema } from '../../../shared/records';
import { contentAppealSchema } from '../../../shared/restrictions';
import { fileContentAppeal } from '../restrictions/content-appeals.service';

/** 401 logged out, 403 not_performer for members without a show. */
export const requirePerformer = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthenticated');
  if (user.performer_show === null) throw new ApiError(403, 'not_performer');
  c.header('Cache-Control', 'no-store');
  await next();
});

async function loadShow(db: D1Database, id: number): Promise<ChatShowRow> {
  const row = await chatShow(db, id);
  if (!row) throw new ApiError(404, 'not_found');
  return row;
}

/** The show of the performer (requirePerformer ran). */
const performerOf = (u: { performer_show: number | null } | null): number => u?.performer_show ?? 0;

const flag = z.boolean({ message: 'boolean_required' });

/** /api/studio: the performer's own show (status, switches, room connection). */
export const studioRoutes = new Hono<AppEnv>()
  .use(requirePerformer)
  .get('/', async (c) => {
    const r = await loadShow(c.env.DB, performerOf(c.get('user')));
    // Today (UTC) from the double-entry ledger: the performer's earnings account of this show.
    const dayStart = Math.floor(Date.now() / 86_400_000) * 86_400;
    const [earnings, stop] = await Promise.all([showEarnings(c.env.DB, r.id, dayStart), currentShowStop(c.env.DB, r.id)]);
    return c.json({
      show: {
        id: r.id,
        name: r.name,
        universalId: r.universal_id,
        slugName: r.slug_name,
        pricePerMinute: r.price_per_minute,
        priceFactorExclusive: r.price_factor_exclusive,
        flags: { free: r.flag_free === 1, exclusive: r.flag_exclusive },
      },
      status: showStatusOf(r),
      earnings: { today: earnings.total, statement: earnings.entries },
      // An operator stopped the show (issue 29): the reason, until it goes online again.
      stop,
    });
  })
  .post(
    '/status',
    zValidator(
      'json',
      z
        .object({ online: flag.optional(), paused: flag.optional(), open: z.object({ free: flag, private: flag, exclusive: flag, voyeur: flag }).partial().strict().optional() })
        .strict(),
      validationHook,
    ),
    async (c) => {
      const id = performerOf(c.get('user'));
      const body = c.req.valid('json');
      // Going online or offline is the show list's business too: changeShowStatus publishes show:bulkupdate.
      if (body.online !== undefined) await changeShowStatus(c.env, [{ id, online: body.online }], (w) => c.executionCtx.waitUntil(w));
      if (body.paused !== undefined || body.open) await updateSwitches(c.env.DB, id, { paused: body.paused, open: body.open });
      const r = await loadShow(c.env.DB, id);
      // The room ends paid sessions when the show goes offline or pauses; online, it waits for the studio's socket.
      await roomOf(c.env, id).setShow(showConf(r), true);
      return c.json({ status: showStatusOf(r) });
    },
  )
  .post('/connect', async (c) => {
    const id = performerOf(c.get('user'));
    const password = await signRoomToken(c.env, { sub: 'performer', show: id, role: 'performer', uid: c.get('user')!.id, login: c.get('loginId') });
    return c.json({ realm: realmOf(c, id), login: 'performer', password, buddyaddr: 'performer' });
  })
  // Co-performers (migration 0033): the show's verified people and the member accounts invited to
  // apply to join it; an operator's approval of such an application adds the person to the show.
  .get('/invites', async (c) => {
    const id = performerOf(c.get('user'));
    return c.json({ people: await verifiedPeople(c.env.DB, id), invites: await showInvites(c.env.DB, id) });
  })
  .post('/invites', zValidator('json', inviteSchema, validationHook), async (c) => {
    await inviteCoPerformer(c.env.DB, performerOf(c.get('user')), c.get('user')!.id, c.req.valid('json').name);
    return c.json({ invites: await showInvites(c.env.DB, performerOf(c.get('user'))) }, 201);
  })
  // An appeal against the removal or refusal of one of the show's uploads (restrictions feature).
  .post('/appeals', zValidator('json', contentAppealSchema, validationHook), async (c) => {
    const id = await fileContentAppeal(c.env, performerOf(c.get('user')), c.get('user')!.id, c.req.valid('json'));
    return c.json({ appeal: { id } }, 201);
  });
