import { FREE_CHAT_SECONDS_PER_DAY, type RoomEvent } from '../../../../shared/chat';
import { nowSeconds } from '../../../lib/clock';
import { spend } from '../../../lib/ledger.repo';
import { spendMany } from '../../../lib/ledger-many.repo';
import { publishShowStatus } from '../../../realtime/shards';
import { announceCoins, callActive } from '../../billing/billing.service';
import { videoShowChange } from '../../video/video-room.service';
import { chargedMinuteAlongside, chargedMinuteStatement, reserveFreeMinute, startSession, updateShowStatus } from '../chat.repo';
import { billingStart, dueMinute, minuteStart, resumeHeld, utcDay, type RoomSession, type ShowConf } from './logic';
import { graceMs, minuteMs } from '../chat-timings';
import { endSession, now, open, performerHere, pushNow, running, save, saveMeta, sendSession, simulated, type Room } from './state';

// The meter of a show's room: the one alarm that charges each running session's next minute from
// its stored start (reference chat:{id}:{m}, so a repeated alarm or retry is a no-op; the paid
// minutes of all sessions in a few D1 batches, chargeMany), ends
// sessions whose member (or lease, or request) is gone, and takes the show offline when its
// performer stays away; and the performer's absence, during which no minute starts (sessions are
// held, and shifted by the time away once the performer is back).

/** The simulator (local development only) accepts a request after this long. */
const SIMULATOR_ACCEPT_MS = 1_500;
/** A private or exclusive request nobody answers ends after this many grace periods. */
const PENDING_GRACE_FACTOR = 2;

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
    return await booked(r, s, m, paid, byCall);
  } finally {
    r.busy.delete(s.id);
  }
}

/**
 * Paid from the member's coins: the tick charges these in batches (chargeMany), after the running
 * private or exclusive, which it charges first on its own: the voyeurs watch that one, and when its
 * minute cannot be paid they end with it, unpaid.
 */
const batchable = (r: Room, s: RoomSession) => s.uid !== null && s.price > 0 && s.phone === null && running(r) !== s;

/**
 * The next minute of each of these sessions (paid from the member's coins), in a few D1 batches
 * for the whole room (spendMany) rather than one per session; each minute keeps its reference
 * chat:{id}:{m}, so a repeated tick charges nothing twice.
 */
async function chargeMany(r: Room, due: RoomSession[]): Promise<void> {
  const mine = due.filter((s) => s.state === 'active' && !r.busy.has(s.id));
  const items = mine.map((s) => ({ s, m: s.minutes + 1 }));
  for (const s of mine) r.busy.add(s.id);
  try {
    const paid = await spendMany(
      r.env.DB,
      items.map(({ s, m }) => ({ userId: s.uid as number, showId: r.show?.id ?? 0, amount: s.price, reason: 'chat', ref: `chat:${s.id}:${m}`, alongside: chargedMinuteAlongside(s.id, m, s.price) })),
    );
    for (const [i, { s, m }] of items.entries()) await booked(r, s, m, paid[i], false);
  } finally {
    for (const s of mine) r.busy.delete(s.id);
  }
}

/** The session after a charge of minute `m`: ended when it could not be paid, else its counts kept, told, warned when low. */
async function booked(r: Room, s: RoomSession, m: number, paid: { ok: boolean; error?: string; coins: number | null }, byCall: boolean): Promise<boolean> {
  if (!paid.ok && paid.error !== 'duplicate') {
    await endSession(r, s, 'no_coins');
    return false;
  }
  if (paid.ok && !byCall) s.coins += s.price;
  s.minutes = Math.max(s.minutes, m);
  s.balance = paid.coins;
  if (s.state === 'ended') return false;
  await save(r, s);
  if (paid.ok && s.uid !== null && paid.coins !== null) r.ctx.waitUntil(announceCoins(r.env, s.uid, paid.coins));
  sendSession(r, s);
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

/** A free session's next minute comes out of the visitor's daily allowance. */
async function reserveFree(r: Room, s: RoomSession, m: number): Promise<boolean> {
  if (r.busy.has(s.id)) return true;
  r.busy.add(s.id);
  try {
    const who = s.uid ? `u:${s.uid}` : `v:${s.visitor}`;
    if (!(await reserveFreeMinute(r.env.DB, who, utcDay(Date.now()), Math.floor(FREE_CHAT_SECONDS_PER_DAY / 60)))) {
      await endSession(r, s, 'free_expired');
      return false;
    }
    s.minutes = Math.max(s.minutes, m);
    await save(r, s);
    await chargedMinuteStatement(r.env.DB, s.id, m, 0).run();
    return true;
  } finally {
    r.busy.delete(s.id);
  }
}

/** Starts a pending private or exclusive: minute 1 is charged at once. */
export async function acceptSession(r: Room, s: RoomSession): Promise<boolean> {
  if (s.state !== 'pending') return false;
  const at = now();
  s.state = 'active';
  s.startedAt = at;
  await save(r, s);
  await startSession(r.env.DB, s.id, at);
  if (!(await charge(r, s, 1))) return false;
  if (s.type === 'exclusive') {
    for (const v of [...r.sessions.values()]) if (v.type === 'voyeur') await endSession(r, v, 'exclusive');
  }
  pushNow(r);
  await schedule(r);
  return true;
}

/** A new show state: offline or paused ends the paid sessions (offline all of them). */
export async function applyShow(r: Room, conf: ShowConf): Promise<void> {
  await videoShowChange(r, conf);
  r.show = conf;
  if (!conf.online) r.perfGoneAt = null;
  await saveMeta(r);
  for (const s of [...r.sessions.values()]) {
    if (!conf.online || (conf.paused && s.type !== 'free')) await endSession(r, s, 'offline');
  }
  pushNow(r);
  await schedule(r);
}

/** The performer's studio is gone for the grace period: the show goes offline by itself. */
async function goOffline(r: Room): Promise<void> {
  if (!r.show) return;
  r.perfGoneAt = null;
  await updateShowStatus(r.env.DB, r.show.id, { online: false }, nowSeconds());
  await publishShowStatus(r.env, [{ id: r.show.id, online: false }]).catch(() => undefined);
  await applyShow(r, { ...r.show, online: false });
}

/** The performer is gone: no running session's next minute starts until they are back. */
export async function holdMinutes(r: Room, at: number): Promise<void> {
  const held = [...r.sessions.values()].filter((s) => s.state === 'active' && s.startedAt !== null && (s.heldAt ?? null) === null);
  for (const s of held) s.heldAt = at;
  if (held.length) await r.ctx.storage.put(Object.fromEntries(held.map((s) => [`s:${s.id}`, s])));
}

/**
 * The performer is back: each held session's minutes are shifted by the time it waited, written
 * in one put with the room's state (an eviction right after keeps the shift, a repeat finds
 * nothing held), so the time they were away is never billed.
 */
export async function resumeMinutes(r: Room, at: number): Promise<void> {
  const resumed = [...r.sessions.values()].filter((s) => s.state === 'active' && resumeHeld(s, at));
  await saveMeta(r, Object.fromEntries(resumed.map((s) => [`s:${s.id}`, s])));
}

/** One alarm at the earliest due time: a minute to charge, a grace period, a request to time out. */
export async function schedule(r: Room): Promise<void> {
  let next = Infinity;
  const grace = graceMs(r.env);
  for (const s of r.sessions.values()) {
    if (s.goneAt !== null) next = Math.min(next, s.goneAt + grace);
    if (s.leaseUntil) next = Math.min(next, s.leaseUntil);
    if (s.state === 'pending') next = Math.min(next, s.createdAt + (simulated(r) ? SIMULATOR_ACCEPT_MS : PENDING_GRACE_FACTOR * grace));
    // A held session waits for the performer's return, not for a time.
    const start = billingStart(s);
    if (s.state === 'active' && start !== null && (s.heldAt ?? null) === null) next = Math.min(next, minuteStart(start, minuteMs(r.env), s.minutes + 1));
  }
  if (r.perfGoneAt !== null) next = Math.min(next, r.perfGoneAt + grace);
  if (next === r.alarmAt) return;
  r.alarmAt = next === Infinity ? null : next;
  if (next === Infinity) await r.ctx.storage.deleteAlarm();
  else await r.ctx.storage.setAlarm(next);
}

/** The alarm. Idempotent: may run late or twice; every charge is keyed by its minute. */
export async function tick(r: Room): Promise<void> {
  r.alarmAt = null;
  const grace = graceMs(r.env);
  const minute = minuteMs(r.env);
  let due: RoomSession[] = [];
  for (const s of [...r.sessions.values()]) {
    const at = now();
    if (s.state === 'ended') continue;
    if ((s.goneAt !== null && at >= s.goneAt + grace) || (s.leaseUntil && at >= s.leaseUntil)) {
      await endSession(r, s, s.goneAt !== null && at >= s.goneAt + grace ? 'timeout' : 'expired');
      continue;
    }
    if (s.state === 'pending') {
      if (simulated(r) && at >= s.createdAt + SIMULATOR_ACCEPT_MS) await acceptSession(r, s);
      else if (at >= s.createdAt + PENDING_GRACE_FACTOR * grace) await endSession(r, s, 'timeout');
      continue;
    }
    const start = billingStart(s);
    if (s.state !== 'active' || start === null || (s.heldAt ?? null) !== null) continue;
    if (!performerHere(r)) {
      // Gone without a goodbye we saw (or never connected): the minute due waits from its start.
      if (s.minutes < dueMinute(start, minute, at)) {
        s.heldAt = minuteStart(start, minute, s.minutes + 1);
        await save(r, s);
      }
      continue;
    }
    if (batchable(r, s)) {
      if (s.minutes < dueMinute(start, minute, at)) due.push(s);
      continue;
    }
    while (s.state === 'active' && (s.heldAt ?? null) === null) {
      const before = s.minutes;
      if (before >= dueMinute(billingStart(s) ?? start, minute, now())) break;
      const ok = s.price > 0 ? await charge(r, s, before + 1) : await reserveFree(r, s, before + 1);
      if (!ok || s.minutes === before) break;
    }
  }
  // The paid minutes due, one per session and round (a late alarm catches up in more rounds).
  while (due.length) {
    const before = new Map(due.map((s) => [s, s.minutes]));
    await chargeMany(r, due);
    due = due.filter((s) => s.state === 'active' && (s.heldAt ?? null) === null && s.minutes > (before.get(s) ?? 0) && s.minutes < dueMinute(billingStart(s) ?? 0, minute, now()));
  }
  if (r.perfGoneAt !== null && now() >= r.perfGoneAt + grace && open(r, 'performer').length === 0 && r.show?.online) await goOffline(r);
  await schedule(r);
}
