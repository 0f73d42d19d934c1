import { Hono, type Context } from 'hono';
import { infoTypeOf, windowErrors, type Favorite, type FavoritesAnswer } from '../../../shared/favorites';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { requireUser } from '../session/session.service';
import { pathShowId } from './favorites-params';
import { createFavorite, deleteFavorite, getFavorite, listFavorites, updateFavorite, type Window } from './favorites.repo';
import { nowSeconds } from '../../lib/clock';
import { withoutHidden } from '../../lib/geo-hidden';

const FIELDS = new Set(['id', 'info_start', 'info_end']);

/** A JSON object body, or {} when there is none; anything else is 422. */
async function jsonBody(c: Context<AppEnv>, required: boolean): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) {
    if (required) throw new ApiError(422, 'validation_failed', { id: ['required'] });
    return {};
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ApiError(422, 'invalid_body');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ApiError(422, 'invalid_body');
  // Only the fields of the spec: anything else is a request we do not understand (nothing is stored).
  const unknown = Object.keys(v).filter((k) => !FIELDS.has(k));
  if (unknown.length) throw new ApiError(422, 'validation_failed', Object.fromEntries(unknown.slice(0, 10).map((k) => [k.slice(0, 40), ['unknown_field']])));
  return v as Record<string, unknown>;
}

/** The notification window of a body: both null/absent off, both 0 daily, else a timespan (422 with field errors). */
function windowOf(body: Record<string, unknown>): Window {
  const errors = windowErrors(body.info_start, body.info_end);
  if (Object.keys(errors).length) throw new ApiError(422, 'validation_failed', errors);
  const start = (body.info_start ?? null) as number | null;
  const end = (body.info_end ?? null) as number | null;
  return { type: infoTypeOf(start, end), start, end };
}

async function mine(c: Context<AppEnv>, showId: number): Promise<Favorite> {
  const fav = (await c.var.hiddenShows()).includes(showId) ? null : await getFavorite(c.env.DB, c.var.member.id, showId);
  if (!fav) throw new ApiError(404, 'not_found');
  return fav;
}

/** GET /api/user/favorites: the member's favourites and how many are online. */
export const userFavoritesRoutes = new Hono<AppEnv>().get('/', requireUser, async (c) => {
  // Favourites hidden from the member's place now (geo-blocking) are left out, not shown offline.
  const data = withoutHidden(await listFavorites(c.env.DB, c.var.member.id), await c.var.hiddenShows(), (f) => f.show_id);
  return c.json<FavoritesAnswer>({ data, online: data.filter((f) => f.online).length });
});

/** /api/favorites/{id}: id is the show's id; every call acts only on the asking member's rows. */
export const favoritesRoutes = new Hono<AppEnv>()
  .get('/:id', requireUser, async (c) => c.json<Favorite>(await mine(c, pathShowId(c))))
  .post('/:id', requireUser, async (c) => {
    const showId = pathShowId(c);
    const w = windowOf(await jsonBody(c, false));
    const result = await createFavorite(c.env.DB, c.var.member.id, showId, w, nowSeconds());
    if (result === 'no_show') throw new ApiError(422, 'validation_failed', { id: ['favorites.unknown_show'] });
    if (result === 'limit') throw new ApiError(422, 'validation_failed', { id: ['favorites.limit'] });
    return c.json<Favorite>(await mine(c, showId), result === 'created' ? 201 : 200);
  })
  .put('/:id', requireUser, async (c) => {
    const showId = pathShowId(c);
    const body = await jsonBody(c, true);
    if (body.id !== showId && body.id !== String(showId)) throw new ApiError(422, 'validation_failed', { id: ['favorites.id_mismatch'] });
    const w = windowOf(body);
    if (!(await updateFavorite(c.env.DB, c.var.member.id, showId, w))) throw new ApiError(404, 'not_found');
    return c.json<Favorite>(await mine(c, showId));
  })
  .delete('/:id', requireUser, async (c) => {
    if (!(await deleteFavorite(c.env.DB, c.var.member.id, pathShowId(c)))) throw new ApiError(404, 'not_found');
    return c.json({ ok: true });
  });
