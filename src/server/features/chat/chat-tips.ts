import type { Context } from 'hono';
import type { TipAction } from '../../../shared/tips';
import type { AppEnv } from '../../env';
import { randomToken } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { spend } from '../../lib/ledger.repo';
import { announceCoins } from '../billing/billing.service';
import { roomOf } from './chat.service';
import { tipStatement, type ChatSessionRow } from './chat.repo';
import { currentGoal, goalStatement } from './tips.repo';

// A tip in a live room, plain or from the tip menu (issue 30 points 1 and 2): refused in voice-call
// mode and outside a running session; booked through the ledger's spend() (reference
// tip:{session}:{key}) in one batch with the session's tip count and the goal's count, so a tip
// the ledger refuses counts nowhere; then the room announces it and the goal it moved.

export interface TipAnswer {
  coins: number | null;
  tip: number;
  duplicate?: true;
}

/** `field`: where a refusal's field error goes (`coins` for a plain tip, `item` for a menu tip). */
export async function bookTip(c: Context<AppEnv>, s: ChatSessionRow, coins: number, key: string | undefined, action: TipAction | null, field: string): Promise<TipAnswer> {
  const member = c.var.member;
  if (c.get('session').voicecall) throw new ApiError(422, 'chat.tip_not_available', { [field]: ['chat.tip_not_available'] });
  if (s.state !== 'active') throw new ApiError(422, 'chat.session_not_active', { sessionId: ['chat.session_not_active'] });
  const db = c.env.DB;
  const now = Date.now();
  const r = await spend(db, { userId: member.id, showId: s.show_id, amount: coins, reason: 'tip', ref: `tip:${s.id}:${key ?? randomToken(9)}` }, [tipStatement(db, s.id, coins), goalStatement(db, s.show_id, coins, now)]);
  if (!r.ok && r.error === 'insufficient_funds') throw new ApiError(422, 'chat.no_coins', { [field]: ['chat.no_coins'] });
  if (!r.ok && r.error === 'duplicate') return { coins: r.coins ?? member.coins, tip: coins, duplicate: true };
  if (!r.ok) throw new ApiError(404, 'not_found');
  c.executionCtx.waitUntil(announceCoins(c.env, member.id, r.coins));
  const goal = await currentGoal(db, s.show_id, Date.now());
  await roomOf(c.env, s.show_id).tip(s.id, coins, action, goal);
  return { coins: r.coins, tip: coins };
}
