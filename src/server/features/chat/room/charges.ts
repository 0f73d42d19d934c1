import { FREE_CHAT_SECONDS_PER_DAY, type RoomEvent } from '../../../../shared/chat';
import { spend } from '../../../lib/ledger.repo';
import { spendMany } from '../../../lib/ledger-many.repo';
import { announceCoins, announceCoinsMany, callActive } from '../../billing/billing.service';
import { chargedMinuteAlongside, chargedMinuteStatement, recordMinutes, reserveFreeChunks } from '../chat.repo';
import { minuteMs } from '../chat-timings';
import { syncVideo } from '../../video/video-room.service';
import { billingStart, freeWho, minuteStart, utcDay, type RoomSession } from './logic';
import { endSession, now, running, save, saveMany, sendSession, type Room } from './state';

// How a show's room books minutes (meter.ts decides which are due): one charge through the ledger
// (the running private or exclusive, a voice call's minute, a voyeur's first minute), the paid
// minutes of many sessions in a few D1 batches (spendMany), and the free minutes of many sessions
// out of their daily allowances (a batch for the allowances, one for the minute counts). Every
// paid minute keeps its reference chat:{session}:{minute}, so nothing is charged twice.

/** Charges minute `m` through the ledger. False when the session ended because the minute could not be paid. */
export async function charge(r: Room, s: RoomSession, m: number): Promise<boolean> {
  if (s.uid === null || s.price <= 0 || r.busy.has(s.id)) return s.state !== 'ended';
  r.busy.add(s.id);
  try {
    const db = r.env.DB;
    // Voice-call session: the connected call pays (the member's coins stay); once it is gone, so is the chat.
    const byCall = typeof s.phone === 'number';
    if (byCall && !(await callActive(db, s.phone as number))) {
      await endSession(r, s, 'call_ended');
      return false;
    }
    const paid = await spend(db, { userId: s.uid, showId: r.show?.id ?? 0, amount: s.price, reason: 'chat', ref: `chat:${s.id}:${m}`, from: byCall ? 'payments' : undefined }, [
      chargedMinuteStatement(db, s.id, m, byCall ? 0 : s.price),
    ]);
    return await booked(r, s, m, paid, byCall, (userId, coins) => r.ctx.waitUntil(announceCoins(r.env, userId, coins)));
  } finally {
    r.busy.delete(s.id);
  }
}

/**
 * Booked in batches by the tick: the paid minutes from members' coins (chargeMany) and the free
 * minutes (reserveMany). Not the running private or exclusive, which the tick charges first on its
 * own: the voyeurs watch that one, and when its minute cannot be paid they end with it, unpaid.
 */
export const batchable = (r: Room, s: RoomSession) => s.phone === null && running(r) !== s && (s.price > 0 ? s.uid !== null : s.type === 'free');

/**
 * The next minute of each of these sessions (paid from the member's coins), in a few D1 batches
 * for the whole room (spendMany) rather than one per session; each minute keeps its reference
 * chat:{id}:{m}, so a repeated tick charges nothing twice.
 */
export async function chargeMany(r: Room, due: RoomSession[]): Promise<void> {
  const mine = due.filter((s) => s.state === 'active' && !r.busy.has(s.id));
  const items = mine.map((s) => ({ s, m: s.minutes + 1 }));
  for (const s of mine) r.busy.add(s.id);
  try {
    const paid = await spendMany(
      r.env.DB,
      items.map(({ s, m }) => ({ userId: s.uid as number, showId: r.show?.id ?? 0, amount: s.price, reason: 'chat', ref: `chat:${s.id}:${m}`, alongside: chargedMinuteAlongside(s.id, m, s.price) })),
    );
    const balances: { userId: number; coins: number }[] = [];
    for (const [i, { s, m }] of items.entries()) await booked(r, s, m, paid[i], false, (userId, coins) => balances.push({ userId, coins }));
    // Every member's open pages learn their balance: one call to the lobby for the whole batch.
    r.ctx.waitUntil(announceCoinsMany(r.env, balances));
  } finally {
    for (const s of mine) r.busy.delete(s.id);
  }
}

/**
 * The session after a charge of minute `m`: ended when it could not be paid, else its counts kept,
 * told, warned when low; `announce` tells the member's pages their new balance.
 */
async function booked(
  r: Room,
  s: RoomSession,
  m: number,
  paid: { ok: boolean; error?: string; coins: number | null },
  byCall: boolean,
  announce: (userId: number, coins: number) => void,
): Promise<boolean> {
  if (!paid.ok && paid.error !== 'duplicate') {
    await endSession(r, s, 'no_coins');
    return false;
  }
  if (paid.ok && !byCall) s.coins += s.price;
  // Minute 1 paid is what lets the session's video through ('waiting' until then, video-plan.ts).
  const firstPaid = s.minutes === 0;
  s.minutes = Math.max(s.minutes, m);
  s.balance = paid.coins;
  if (s.state === 'ended') return false;
  await save(r, s);
  if (paid.ok && s.uid !== null && paid.coins !== null) announce(s.uid, paid.coins);
  sendSession(r, s);
  // Told with the charge, whoever made it (the accept, or the tick after the member's return or a
  // busy accept), not with the room's next change: the member would pay while told 'waiting'.
  if (firstPaid) syncVideo(r);
  if (!byCall && paid.coins !== null && paid.coins < s.price && !s.warned) {
    s.warned = true;
    await save(r, s);
    const at = now();
    const next = minuteStart(billingStart(s) ?? at, minuteMs(r.env), s.minutes + 1);
    const warn: RoomEvent = { t: 'warn', code: 'coins_low', sessionId: s.id, seconds: Math.max(0, Math.ceil((next - at) / 1000)) };
    r.send(`s:${s.id}`, warn);
    r.send('performer', warn);
  }
  return true;
}

/**
 * Free minutes are reserved from the visitor's daily allowance this many at a time: a free viewer
 * costs the database two writes every five minutes, not two a minute; what a session did not use
 * goes back when it ends (state.ts endSession).
 */
export const FREE_CHUNK = 5;

/**
 * The next minute of each of these free sessions: from the minutes its room holds for it, else a
 * new chunk out of its visitor's daily allowance (reserveFreeChunks, D1 batches, then their
 * minute counts in one more); a session whose allowance is spent ends (free_expired).
 */
export async function reserveMany(r: Room, due: RoomSession[]): Promise<void> {
  const mine = due.filter((s) => s.state === 'active' && !r.busy.has(s.id));
  for (const s of mine) r.busy.add(s.id);
  try {
    const day = utcDay(Date.now());
    const limit = Math.floor(FREE_CHAT_SECONDS_PER_DAY / 60);
    const held = mine.filter((s) => (s.freeHeld ?? 0) > 0 && s.freeDay === day);
    const ask = mine.filter((s) => !held.includes(s));
    const granted = await reserveFreeChunks(r.env.DB, ask.map(freeWho), day, limit, FREE_CHUNK);
    for (const s of held) {
      s.freeHeld = (s.freeHeld ?? 0) - 1;
      s.minutes += 1;
    }
    const recorded: RoomSession[] = [];
    for (const [i, s] of ask.entries()) {
      if (granted[i] === 0) {
        await endSession(r, s, 'free_expired');
        continue;
      }
      s.freeHeld = granted[i] - 1;
      s.freeDay = day;
      s.minutes += 1;
      recorded.push(s);
    }
    await saveMany(r, [...held, ...recorded]);
    await recordMinutes(r.env.DB, recorded.map((s) => ({ id: s.id, minute: s.minutes })));
  } finally {
    for (const s of mine) r.busy.delete(s.id);
  }
}
