import type { Context } from 'hono';
import { MESSAGE_ERRORS, MESSAGE_SEND_LIMIT, MESSAGE_SEND_WINDOW_S, type SendAnswer } from '../../../shared/messages';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { randomToken } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { spend } from '../../lib/ledger.repo';
import { reserve } from '../../lib/throttle.repo';
import { announceCoins } from '../billing/billing.service';
import { toConversation, toMessage } from './conversation-mapping';
import {
  blockOf,
  conversationByKey,
  inVoicecallSession,
  memberCounts,
  memberMessage,
  memberMessageStatements,
  messageIdByTipRef,
  ownNickname,
  showBrief,
} from './conversations.repo';
import { pushCounts } from './notify';

// A member's message to a show (optionally with a tip) or to support. The tip is one spend()
// (member -> performer earnings and house) in the same D1 batch as the conversation and message
// rows: without the coins the CHECK aborts the batch and nothing is sent.

const PSEUDO_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh pseudonym: random, so it says nothing about the member. */
export function newPseudonym(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `Fan-${Array.from(bytes, (b) => PSEUDO_ALPHABET[b % PSEUDO_ALPHABET.length]).join('')}`;
}

/** pseudoid > 0 must be one of the member's nicknames (422 otherwise). */
export async function resolvePseudo(db: D1Database, userId: number, pseudoId: number): Promise<string> {
  const nick = await ownNickname(db, userId, pseudoId);
  if (nick === null) throw new ApiError(422, MESSAGE_ERRORS.invalidPseudo, { pseudoid: [MESSAGE_ERRORS.invalidPseudo] });
  return nick;
}

export interface Outgoing {
  /** 0: support. */
  showId: number;
  pseudoId: number;
  body: string;
  /** Coins to tip (0: none). */
  tip: number;
}

export async function sendMemberMessage(c: Context<AppEnv>, o: Outgoing): Promise<SendAnswer> {
  const db = c.env.DB;
  const member = c.var.member;
  if (o.showId !== 0) {
    if (!member.is_verified) throw new ApiError(403, 'not_verified');
    if (!(await showBrief(db, o.showId))) throw new ApiError(404, MESSAGE_ERRORS.notFound);
    const block = await blockOf(db, member.id, o.showId);
    if (block.by_member || block.by_show) throw new ApiError(403, MESSAGE_ERRORS.blocked);
  }
  const existing = await conversationByKey(db, member.id, o.showId, o.pseudoId);
  const pseudo = existing?.member_pseudo ?? (o.pseudoId === 0 ? newPseudonym() : await resolvePseudo(db, member.id, o.pseudoId));
  if (existing && o.pseudoId > 0) await resolvePseudo(db, member.id, o.pseudoId);
  if (o.tip > 0 && (c.get('session').voicecall || (await inVoicecallSession(db, member.id, o.showId)))) {
    throw new ApiError(422, MESSAGE_ERRORS.tipVoicecall, { coins: [MESSAGE_ERRORS.tipVoicecall] });
  }
  // The send limit is reserved before the work (a burst cannot walk past it); a send that then
  // fails hands its reservation back.
  const slot = await reserve(db, [{ key: `msg:${member.id}`, limit: MESSAGE_SEND_LIMIT, windowSeconds: MESSAGE_SEND_WINDOW_S }]);
  if (!slot.ok) throw new ApiError(429, MESSAGE_ERRORS.throttled, undefined, { 'Retry-After': String(slot.retryAfter) });
  try {
    return await write(c, o, pseudo);
  } catch (e) {
    await slot.refund();
    throw e;
  }
}

async function write(c: Context<AppEnv>, o: Outgoing, pseudo: string): Promise<SendAnswer> {
  const db = c.env.DB;
  const member = c.var.member;
  const now = nowSeconds();
  const tipRef = o.tip > 0 ? `tip:msg:${member.id}:${randomToken(12)}` : null;
  const statements = memberMessageStatements(db, { userId: member.id, showId: o.showId, pseudoId: o.pseudoId, pseudo, body: o.body, tip: o.tip, tipRef, now });
  let messageId: number | null;
  let coins: number | undefined;
  if (tipRef) {
    const r = await spend(db, { userId: member.id, showId: o.showId, amount: o.tip, reason: 'tip', ref: tipRef }, statements);
    if (!r.ok && r.error === 'insufficient_funds') throw new ApiError(422, MESSAGE_ERRORS.noCoins, { coins: [MESSAGE_ERRORS.noCoins] });
    if (!r.ok) throw new ApiError(401, 'unauthenticated');
    coins = r.coins;
    messageId = await messageIdByTipRef(db, tipRef);
    c.executionCtx.waitUntil(announceCoins(c.env, member.id, r.coins));
  } else {
    const results = await db.batch<{ id: number }>(statements);
    messageId = results[1]?.results[0]?.id ?? null;
  }
  const [row, conv, counts] = await Promise.all([
    messageId === null ? null : memberMessage(db, member.id, messageId),
    conversationByKey(db, member.id, o.showId, o.pseudoId),
    memberCounts(db, member.id),
  ]);
  if (!row || !conv) throw new ApiError(404, MESSAGE_ERRORS.notFound);
  c.executionCtx.waitUntil(pushCounts(c.env, member.id, o.showId));
  return { message: toMessage(row, 'member'), conversation: toConversation(conv), counts, ...(coins === undefined ? {} : { user: { coins } }) };
}
