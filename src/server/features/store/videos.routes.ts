import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { mediaUrl, type BuyAnswer, type PlayAnswer, type RateAnswer, type VideoAnswer, type ViewAnswer } from '../../../shared/store';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { announceCoins } from '../billing/billing.service';
import { requireUser, requireVerified } from '../session/session.service';
import { buyItem } from './buying';
import { countView, findBuyableVideo, findPartObject, rateItem } from './purchases.repo';
import { buyBody, pathCcid, pathId, rateBody, seerOf } from './store-params';
import { getVideo } from './store.service';

const DAY_S = 86_400;

/** The published video of {ccid} with an existing {part}, else 404. */
async function videoPart(c: Context<AppEnv>) {
  const ccid = pathCcid(c.req.param('ccid'));
  const part = pathId(c.req.param('part'));
  if (ccid === null || part === null) throw new ApiError(404, 'not_found');
  const video = await findBuyableVideo(c.env.DB, ccid, part, c.get('user')?.id ?? null);
  if (!video || !video.has_part || (await c.var.hiddenShows()).includes(video.show_id)) throw new ApiError(404, 'not_found');
  return { video, part };
}

/** Who counts as one viewer: the member, else the visitor's session (hashed: the id is a secret). */
async function viewer(c: Context<AppEnv>): Promise<string | null> {
  const user = c.get('user');
  if (user) return `u:${user.id}`;
  const sid = c.get('cookieSessionId');
  return sid ? `s:${(await sha256Hex(sid)).slice(0, 32)}` : null;
}

/** /api/videos */
export const videosRoutes = new Hono<AppEnv>()
  .post('/buy/:ccid/:part', requireUser, requireVerified, zValidator('json', buyBody, validationHook), async (c) => {
    const { video } = await videoPart(c);
    const userId = c.var.member.id;
    const answer = await buyItem(c.env, userId, 'video', video, c.req.valid('json').use_voucher, nowSeconds(), (coins) =>
      c.executionCtx.waitUntil(announceCoins(c.env, userId, coins)),
    );
    return c.json<BuyAnswer>(answer);
  })
  .post('/rate/:ccid/:part', requireUser, zValidator('json', rateBody, validationHook), async (c) => {
    const { video } = await videoPart(c);
    if (!video.owned) throw new ApiError(403, 'store.not_owned');
    const stars = c.req.valid('json').rating;
    const after = await rateItem(c.env.DB, c.var.member.id, 'video', video.id, stars, nowSeconds());
    return c.json<RateAnswer>({ ...after, my_rating: stars });
  })
  .get('/play/:ccid/:part', requireUser, async (c) => {
    const { video, part } = await videoPart(c);
    if (!video.owned) throw new ApiError(403, 'store.not_owned');
    const object = await findPartObject(c.env.DB, video.id, part, 'full', c.var.member.id);
    if (!object) throw new ApiError(404, 'not_found');
    return c.json<PlayAnswer>({ url: mediaUrl.part(video.id, part), mime: object.mime, duration: object.duration_s ?? 0 });
  })
  .post('/view/:ccid/:part', async (c) => {
    const { video } = await videoPart(c);
    const now = nowSeconds();
    return c.json<ViewAnswer>(await countView(c.env.DB, video.id, await viewer(c), Math.floor(now / DAY_S)));
  })
  .get('/:id', async (c) => {
    const video = await getVideo(c.env.DB, { id: c.req.param('id'), locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows(), seer: seerOf(c) });
    if (!video) throw new ApiError(404, 'not_found');
    return c.json<VideoAnswer>(video);
  });
