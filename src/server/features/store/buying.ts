import type { BuyAnswer } from '../../../shared/store';
import type { Bindings } from '../../env';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { spend } from '../../lib/ledger.repo';
import { hasPurchase, findPrize, memberCoins, purchaseStatement, usePrize, type Buyable } from './purchases.repo';
import type { Kind } from './store.repo';

// Buying a video (all its parts) or a gallery with coins or a prize (issue 13).

/** How often a prize purchase looks for another unused prize when a parallel request took the one it found. */
const PRIZE_ATTEMPTS = 3;

async function already(db: D1Database, userId: number): Promise<BuyAnswer> {
  return { ok: true, already: true, voucher: null, user: { coins: await memberCoins(db, userId) } };
}

/**
 * Buys `item` for the member. Coins: one spend() (member -> performer earnings and house) in the
 * same batch as the purchase row, whose UNIQUE (and the ledger reference) make a repeat a no-op.
 * Prize: the coupon's use and the purchase row in one batch, the purchase conditional on the use.
 * `announce` gets the new balance after a coin purchase (the member's open tabs).
 */
export async function buyItem(
  env: Bindings,
  userId: number,
  kind: Kind,
  item: Buyable,
  useVoucher: boolean,
  now: number,
  announce: (coins: number) => void,
): Promise<BuyAnswer> {
  const db = env.DB;
  if (item.owned) return already(db, userId);
  if (useVoucher) {
    for (let attempt = 0; attempt < PRIZE_ATTEMPTS; attempt++) {
      const code = await findPrize(db, userId, kind === 'video' ? 'VIDEO' : 'GALLERY', now);
      if (code === null) break;
      let used: boolean;
      try {
        used = await usePrize(db, userId, kind, item, code, now);
      } catch (e) {
        if (isUniqueViolation(e)) return already(db, userId);
        throw e;
      }
      if (used) return { ok: true, already: false, voucher: code, user: { coins: await memberCoins(db, userId) } };
      if (await hasPurchase(db, userId, kind, item.id)) return already(db, userId);
    }
    if (await hasPurchase(db, userId, kind, item.id)) return already(db, userId);
    throw new ApiError(422, 'store.no_voucher');
  }
  const result = await spend(db, { userId, showId: item.show_id, amount: item.price, reason: 'purchase', ref: `purchase:${kind}:${item.id}:${userId}` }, [
    purchaseStatement(db, userId, kind, item, now),
  ]);
  if (result.ok) {
    announce(result.coins);
    return { ok: true, already: false, voucher: null, user: { coins: result.coins } };
  }
  if (result.error === 'duplicate') return already(db, userId);
  if (result.error === 'insufficient_funds') throw new ApiError(422, 'store.no_coins');
  throw new ApiError(401, 'unauthenticated');
}
