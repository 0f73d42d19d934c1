import { nowSeconds } from '../../../lib/clock';
import { publishShowStatus } from '../../../realtime/shards';
import { videoShowChange } from '../../video/video-room.service';
import { startSession, updateShowStatus } from '../chat.repo';
import { graceMs, minuteMs } from '../chat-timings';
import { batchable, charge, chargeMany, reserveMany } from './charges';
import { billingStart, dueMinute, holdForViewer, minuteStart, resumeHeld, snapshotOf, viewerBack, type RoomSession, type ShowConf } from './logic';
import { endSession, now, open, performerHere, pushNow, pushSoon, save, saveMany, saveMeta, simulated, type Room } from './state';
import { census } from './fanout';
import { endWatches } from './watch';

// The meter of a show's room: the one alarm that books each running session's next minute from
// its stored start (charges.ts; reference chat:{id}:{m}, so a repeated alarm or retry charges
// nothing twice), ends sessions whose member (or lease, or request) is gone, and takes the show
// offline when its performer stays away; and the performer's absence, during which no minute
// starts (sessions are held, and shifted by the time away once the performer is back).

/** The simulator (local development only) accepts a request after this long. */
const SIMULATOR_ACCEPT_MS = 1_500;
/** A private or exclusive request nobody answers ends after this many grace periods. */
const PENDING_GRACE_FACTOR = 2;

/** Starts a pending private or exclusive: minute 1 is charged at once. */
export async function acceptSession(r: Room, s: RoomSession): Promise<boolean> {
  if (s.state !== 'pending') return false;
  const at = now();
  s.state = 'active';
  s.startedAt = at;
  // Its member's socket is gone (viewersGone): held from the start, minute 1 comes with their return.
  const away = (s.heldAt ?? null) !== null;
  if (away) s.heldAt = at;
  await save(r, s);
  await startSession(r.env.DB, s.id, at);
  if (!away && !(await charge(r, s, 1))) return false;
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
  // Taken offline from outside (an operator's stop, the deploy's token): the studio learns it too.
  if (!conf.online) r.send('performer', { t: 'room', room: snapshotOf(r.show, r.sessions.values()) });
  pushNow(r);
  // An operator's hidden watch ends with the show (watch.ts), after the offline state reached it.
  if (!conf.online) endWatches(r);
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
  // A session whose viewer is away too stays held until they are back (viewerJoined).
  const resumed = [...r.sessions.values()].filter((s) => s.state === 'active' && s.goneAt === null && resumeHeld(s, at));
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

/** The alarm rings by `at` (O(1): a session's grace starting can only bring it forward). */
export async function alarmBy(r: Room, at: number): Promise<void> {
  if (r.alarmAt !== null && r.alarmAt <= at) return;
  r.alarmAt = at;
  await r.ctx.storage.setAlarm(at);
}

/**
 * Before a tick bills: which sessions have a socket open, as their shards count them. A shard
 * that restarted lost its sockets without a goodbye; their sessions' grace starts now (and a
 * session whose socket came back while its goodbye was on the way is here again).
 */
async function recount(r: Room): Promise<void> {
  const list = [...r.sessions.values()].filter((s) => s.state !== 'ended');
  if (list.length === 0) return;
  const { here, unknown } = await census(r, list);
  const at = now();
  const changed: RoomSession[] = [];
  for (const s of list) {
    if (unknown.has(s.id) || !r.sessions.has(s.id)) continue;
    const goneAt = here.has(s.id) ? null : (s.goneAt ?? at);
    if (goneAt === s.goneAt) continue;
    s.goneAt = goneAt;
    if (goneAt !== null) holdForViewer(s, goneAt);
    else viewerBack(s, at, performerHere(r));
    changed.push(s);
  }
  await saveMany(r, changed);
  if (changed.length) pushSoon(r);
}

/** The alarm. Idempotent: may run late or twice; every charge is keyed by its minute. */
export async function tick(r: Room): Promise<void> {
  r.alarmAt = null;
  await recount(r);
  const grace = graceMs(r.env);
  const minute = minuteMs(r.env);
  const due: RoomSession[] = [];
  const free: RoomSession[] = [];
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
      if (s.minutes < dueMinute(start, minute, at)) (s.price > 0 ? due : free).push(s);
      continue;
    }
    while (s.state === 'active' && (s.heldAt ?? null) === null) {
      const before = s.minutes;
      if (before >= dueMinute(billingStart(s) ?? start, minute, now())) break;
      if (s.price > 0) {
        if (!(await charge(r, s, before + 1))) break;
      } else await reserveMany(r, [s]);
      if (s.minutes === before) break;
    }
  }
  // The minutes due of all other sessions, in batches: one per session and round (a late alarm
  // catches up in more rounds).
  for (const [list, book] of [[due, chargeMany], [free, reserveMany]] as const) {
    let round = list;
    while (round.length) {
      const before = new Map(round.map((s) => [s, s.minutes]));
      await book(r, round);
      round = round.filter((s) => s.state === 'active' && (s.heldAt ?? null) === null && s.minutes > (before.get(s) ?? 0) && s.minutes < dueMinute(billingStart(s) ?? 0, minute, now()));
    }
  }
  if (r.perfGoneAt !== null && now() >= r.perfGoneAt + grace && open(r, 'performer').length === 0 && r.show?.online) await goOffline(r);
  await schedule(r);
}
