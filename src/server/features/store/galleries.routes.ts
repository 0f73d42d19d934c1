import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import type { BuyAnswer, FreeGalleryAnswer, GalleryAnswer, RateAnswer } from '../../../shared/store';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validation';
import { announceCoins } from '../billing/billing.service';
import { requireUser, requireVerified } from '../session/session.service';
import { buyItem } from './buying';
import { findBuyableGallery, galleryShowPrice, rateItem } from './purchases.repo';
import { buyBody, pathId, rateBody, seerOf } from './store-params';
import { getGallery } from './store.service';

/** The published gallery {galleryId} of show {showId}, else 404. */
async function showGallery(c: Context<AppEnv>) {
  const showId = pathId(c.req.param('showId'));
  const id = pathId(c.req.param('galleryId'));
  if (showId === null || id === null || (await c.var.hiddenShows()).includes(showId)) throw new ApiError(404, 'not_found');
  const gallery = await findBuyableGallery(c.env.DB, showId, id, c.get('user')?.id ?? null);
  if (!gallery) throw new ApiError(404, 'not_found');
  return gallery;
}

/** /api/galleries */
export const galleriesRoutes = new Hono<AppEnv>()
  .post('/buy/:showId/:galleryId', requireUser, requireVerified, zValidator('json', buyBody, validationHook), async (c) => {
    const gallery = await showGallery(c);
    const userId = c.var.member.id;
    const answer = await buyItem(c.env, userId, 'gallery', gallery, c.req.valid('json').use_voucher, nowSeconds(), (coins) =>
      c.executionCtx.waitUntil(announceCoins(c.env, userId, coins)),
    );
    return c.json<BuyAnswer>(answer);
  })
  .post('/rate/:showId/:galleryId', requireUser, zValidator('json', rateBody, validationHook), async (c) => {
    const gallery = await showGallery(c);
    if (!gallery.owned) throw new ApiError(403, 'store.not_owned');
    const stars = c.req.valid('json').rating;
    const after = await rateItem(c.env.DB, c.var.member.id, 'gallery', gallery.id, stars, nowSeconds());
    return c.json<RateAnswer>({ ...after, my_rating: stars });
  })
  // Before /:showId/:id, which would also match /free/{id}.
  .get('/free/:id', async (c) => {
    const id = pathId(c.req.param('id'));
    const found = id === null ? null : await galleryShowPrice(c.env.DB, id);
    if (id === null || !found) throw new ApiError(404, 'not_found');
    if (found.price > 0) throw new ApiError(403, 'store.not_free');
    const gallery = await getGallery(c.env.DB, { showId: found.show_id, id, locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows() });
    if (!gallery) throw new ApiError(404, 'not_found');
    return c.json<FreeGalleryAnswer>({ images: gallery.pictures });
  })
  .get('/:showId/:galleryId', async (c) => {
    const showId = pathId(c.req.param('showId'));
    const id = pathId(c.req.param('galleryId'));
    const gallery = showId === null || id === null ? null : await getGallery(c.env.DB, { showId, id, locale: c.get('locale'), userId: c.get('user')?.id ?? null, hidden: await c.var.hiddenShows(), seer: seerOf(c) });
    if (!gallery) throw new ApiError(404, 'not_found');
    return c.json<GalleryAnswer>(gallery);
  });
