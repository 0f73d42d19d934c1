import type { EndReason, SessionType, SessionView } from '../../../../shared/chat';
import { graceMs, leaseMs, minuteMs } from '../chat-timings';
import { syncVideo, videoRejoined } from '../../video/video-room.service';
import { billingStart, holdForViewer, minuteStart, sessionView, viewerBack, type RoomSession, type ShowConf } from './logic';
import { charge } from './charges';
import { alarmBy, applyShow, holdMinutes, resumeMinutes, schedule } from './meter';
import { endSession, now, open, performerHere, presenceAll, pushSoon, running, save, saveMany, saveMeta, saveSoon, type Room, type RoomAttachment } from './state';
import { census, placeSession } from './fanout';

// A show room's sessions as the worker and the sockets change them: a new session (register),
// the show's state, an end, a lease extended, a login ended; a socket joining or leaving.

export interface NewRoomSession {
  id: string;
  uid: number | null;
  visitor: string;
  nick: string;
  type: SessionType;
  price: number;
  /** Voice-call session: the phone billing whose call pays for the time. */
  phone: number | null;
}

export type RegisterResult = { ok: true; session: SessionView } | { ok: false; code: string };

/** A new session of this show (the worker checked the catalogue's rules and reserved its limits). */
export async function register(r: Room, n: NewRoomSession, show: ShowConf): Promise<RegisterResult> {
  if (JSON.stringify(show) !== JSON.stringify(r.show)) {
    r.show = show;
    await r.ctx.storage.put('show', show);
  }
  const at = now();
  if (n.type === 'voyeur' && running(r)?.type === 'exclusive') return { ok: false, code: 'chat.show_not_available_exclusive_in_use' };
  const pending = n.type === 'private' || n.type === 'exclusive';
  const s: RoomSession = {
    ...n,
    state: pending ? 'pending' : 'active',
    createdAt: at,
    startedAt: pending ? null : at,
    // a free session's first minute was reserved by the worker
    minutes: n.type === 'free' ? 1 : 0,
    coins: 0,
    balance: null,
    warned: false,
    goneAt: at,
    // A partner show's session holds a lease its page extends (POST /api/chat/external/extend).
    leaseUntil: show.providerId > 1 ? at + leaseMs(r.env) : null,
    // Started while the performer is away: its minutes begin when they are back.
    heldAt: !pending && !performerHere(r) ? at : null,
  };
  placeSession(r, s);
  r.sessions.set(s.id, s);
  r.presenceDirty.add(s.id);
  await save(r, s);
  if (n.type === 'voyeur' && s.heldAt === null && !(await charge(r, s, 1))) return { ok: false, code: 'chat.no_coins' };
  if (pending) r.send('performer', { t: 'request', session: sessionView(s) });
  pushSoon(r);
  await schedule(r);
  return { ok: true, session: sessionView(s) };
}

/** The studio (or the worker) changed the show; `studio`: the performer must connect within the grace. */
export async function setShow(r: Room, show: ShowConf, studio: boolean): Promise<void> {
  if (studio && show.online && open(r, 'performer').length === 0 && r.perfGoneAt === null) r.perfGoneAt = Date.now();
  await applyShow(r, show);
}

/** Ends a session (the member's end call, a beacon); null when the room does not hold it. */
export async function end(r: Room, sessionId: string, reason: EndReason): Promise<SessionView | null> {
  const s = r.sessions.get(sessionId);
  if (!s) return null;
  await endSession(r, s, reason);
  return sessionView(s, reason);
}

/** Extends an external session's lease; null when the room does not hold it running with a lease. */
export async function extend(r: Room, sessionId: string): Promise<{ session: SessionView; leaseUntil: number; leaseMs: number } | null> {
  const s = r.sessions.get(sessionId);
  if (!s || s.state === 'ended' || !s.leaseUntil) return null;
  s.leaseUntil = Date.now() + leaseMs(r.env);
  await save(r, s);
  await schedule(r);
  return { session: sessionView(s), leaseUntil: s.leaseUntil, leaseMs: leaseMs(r.env) };
}

/** A login of member `uid` ended: its sessions end; answers the ended ids (the studio's sockets are the room's to close). */
export async function endLoginSessions(r: Room, uid: number, sessionIds: string[]): Promise<string[]> {
  const mine = sessionIds.map((id) => r.sessions.get(id)).filter((s): s is RoomSession => s?.uid === uid);
  for (const s of mine) await endSession(r, s, 'logout');
  return mine.map((s) => s.id);
}

/** The performer's studio connected (the socket is accepted): minutes resume, requests and presence are sent. */
export async function performerJoining(r: Room): Promise<void> {
  r.perfGoneAt = null;
  await resumeMinutes(r, now());
}

export async function performerJoined(r: Room): Promise<void> {
  for (const s of r.sessions.values()) if (s.state === 'pending') r.send('performer', { t: 'request', session: sessionView(s) });
  r.send('performer', presenceAll(r));
  await schedule(r);
  syncVideo(r, 'performer');
}

/**
 * A viewer's socket of session `s` joined. O(1), for a storm of thousands: the session is saved
 * with the others that joined in this turn (a room that restarts before learns it from the
 * shards' census at its next tick), and the alarm is left alone (one set for this session's
 * grace finds nothing to do and sets the next).
 */
export function viewerJoined(r: Room, s: RoomSession): void {
  if (s.goneAt !== null) {
    s.goneAt = null;
    // Back: the minutes held while the viewer was away go on (the performer there too), from where they stopped.
    if (viewerBack(s, now(), performerHere(r))) void alarmBy(r, minuteStart(billingStart(s) ?? now(), minuteMs(r.env), s.minutes + 1));
    saveSoon(r, s);
  }
  videoRejoined(r, s.id);
  pushSoon(r);
}

/** A performer's socket is gone: their last one holds the minutes. */
export async function left(r: Room, a: RoomAttachment | null): Promise<void> {
  if (a?.role !== 'performer' || open(r, 'performer').length > 0 || !r.show?.online) return;
  const at = now();
  r.perfGoneAt = at;
  await saveMeta(r);
  await holdMinutes(r, at);
  await schedule(r);
}

/** A shard saw the last sockets of these sessions go: their grace starts (for those the shard confirms none came back to meanwhile). */
export async function viewersGone(r: Room, sids: string[]): Promise<void> {
  const list = sids.map((id) => r.sessions.get(id)).filter((s): s is RoomSession => s?.goneAt === null);
  if (list.length === 0) return;
  const { here, unknown } = await census(r, list);
  const at = now();
  const gone = list.filter((s) => !here.has(s.id) && !unknown.has(s.id) && s.goneAt === null && r.sessions.has(s.id));
  for (const s of gone) {
    s.goneAt = at;
    holdForViewer(s, at);
  }
  await saveMany(r, gone);
  if (gone.length) await alarmBy(r, at + graceMs(r.env));
  pushSoon(r);
}
