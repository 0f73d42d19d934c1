import { Hono, type Context } from 'hono';
import { GAME_SEGMENTS, gameDay, gameRef, nextGameDay, segmentFor, type GameSpin, type GameState } from '../../../shared/game';
import type { AppEnv } from '../../env';
import { requireUser, requireVerified } from '../session/session.service';
import { ApiError } from '../../lib/errors';
import { announceCoins } from '../billing/billing.service';
import { credit } from '../../lib/ledger.repo';
import { findSpin, reserveSpinStatement } from './game.repo';
import type { GameAnswer, SpinAnswer } from '../../../shared/api';

/** A uniform draw in [0, 1) from the platform's CSPRNG: the client has no say in the prize. */
function draw(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;
}

/** Today's game state of the member (also rendered into the /game page). */
export async function gameState(db: D1Database, userId: number, now = new Date()): Promise<GameState> {
  const day = gameDay(now);
  return { day, spin: await findSpin(db, userId, day), next_at: nextGameDay(now) };
}

const noStore = (c: Context<AppEnv>) => c.header('Cache-Control', 'no-store');

export const gameRoutes = new Hono<AppEnv>()
  .use('/', requireUser)
  .use('/*', requireUser)
  .get('/', async (c) => {
    noStore(c);
    return c.json<GameAnswer>(await gameState(c.env.DB, c.var.member.id));
  })
  // Coins are worth money: only members with a confirmed address play (no farming with throwaway sign-ups).
  .post('/spin', requireVerified, async (c) => {
    noStore(c);
    const userId = c.var.member.id;
    const now = new Date();
    const segment = segmentFor(draw());
    const spin: GameSpin = { day: gameDay(now), segment, coins: GAME_SEGMENTS[segment].coins, at: Math.floor(now.getTime() / 1000) };
    // Reservation and payout in one batch: a second spin of the day (also a parallel one) fails
    // on the primary key and changes nothing.
    const result = await credit(c.env.DB, userId, spin.coins, 'coupon', gameRef(userId, spin.day), [reserveSpinStatement(c.env.DB, userId, spin)]);
    if (!result.ok) {
      if (result.error === 'duplicate') throw new ApiError(409, 'game_already_played');
      throw new ApiError(401, 'unauthenticated');
    }
    c.executionCtx.waitUntil(announceCoins(c.env, userId, result.coins));
    const state: GameState = { day: spin.day, spin, next_at: nextGameDay(now) };
    return c.json<SpinAnswer>({ ...state, user: { coins: result.coins } });
  });
