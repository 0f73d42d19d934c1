import type { ChatLine, EndReason, ParticipantRole, RoomEvent } from '../../../../shared/chat';
import type { Bindings } from '../../../env';
import { loadVideoState, syncVideo, type VideoState } from '../../video/video-room.service';
import { endSessionRow, releaseFreeMinutes } from '../chat.repo';
import { runningOf } from '../../../../shared/room-mode';
import { isWatcherId, WATCH_TAG } from '../../../../shared/video';
import { FrameLimiter, freeWho, participantOf, participantsOf, sessionView, snapshotOf, visibleLines, type RoomSession, type ShowConf } from './logic';
import { toShard, unplaceSession, type ShardLine } from './fanout';
import { timedMuteOf } from './mutes';

// A show's live room as plain data (one Durable Object per show, show-room.ts) and the helpers every
// part of the room uses: sockets by tag, storage, the pushes to viewers and the performer, and the
// one way a session ends. sessions.ts, meter.ts and lines.ts are functions over this state.

export interface RoomAttachment {
  /** 'performer' or the chat session id. */
  sid: string;
  role: ParticipantRole;
  uid: number | null;
  nick: string;
  /** The login the socket's token named (members and the performer): a renewed token names it too. */
  login?: string | null;
}

/** Tests only: the clock the rooms bill by (a property test drives it instead of waiting minutes). */
export const meterTestHooks: { now?: () => number } = {};

export interface Room {
  ctx: DurableObjectState;
  env: Bindings;
  sessions: Map<string, RoomSession>;
  show: ShowConf | null;
  /** Recent lines for late joiners (written at most once a second, lines.ts). */
  history: ChatLine[];
  mutes: Set<string>;
  /** Since when the performer's studio is gone while the show is online (null: there, or offline). */
  perfGoneAt: number | null;
  /** Sessions with a charge under way. */
  busy: Set<string>;
  /** The alarm time this instance last set (unknown after a restart: set again). */
  alarmAt: number | null;
  pushTimer: ReturnType<typeof setTimeout> | null;
  /** When pushTimer rings (an earlier push asked for replaces it). */
  pushAt: number;
  /** The viewers' last snapshot (`key`: all but the count) and when (a count-only change waits: COUNT_EVERY_MS). */
  told: { key: string; viewers: number; at: number } | null;
  historyTimer: ReturnType<typeof setTimeout> | null;
  /** Every frame of every sender passes these limits first (one viewer's flood must not slow the room). */
  limits: FrameLimiter;
  video: VideoState;
  /** Sessions the performer has not heard about since they came, changed or left (presenceChange). */
  presenceDirty: Set<string>;
  /** Sessions to be saved once this turn ends (saveSoon). */
  unsaved: Set<RoomSession>;
  /** Sessions per viewers' shard (fanout.ts). */
  shardLoad: Map<number, number>;
  /** The calls under way and queued to each shard. */
  shards: Map<number, ShardLine>;
  /** This instance's start: the ops it numbers for its shards are numbered anew after a restart. */
  epoch: number;
  /**
   * Sends to the performer's sockets ('performer', here), to every viewer ('v') or to one
   * session's sockets ('s:{id}'; `shard`: the session's, when it is no longer in the room).
   */
  send(tag: string, event: RoomEvent | string, shard?: number): void;
}

/** A room's state read back from storage (the constructor runs this under blockConcurrencyWhile). */
export async function loadRoom(ctx: DurableObjectState, env: Bindings): Promise<Room> {
  const got = await ctx.storage.get<unknown>(['show', 'history', 'mutes', 'perfGoneAt', 'video']);
  const room: Room = {
    ctx,
    env,
    sessions: new Map(),
    show: (got.get('show') as ShowConf | undefined) ?? null,
    history: (got.get('history') as ChatLine[] | undefined) ?? [],
    mutes: new Set((got.get('mutes') as string[] | undefined) ?? []),
    perfGoneAt: (got.get('perfGoneAt') as number | undefined) ?? null,
    busy: new Set(),
    alarmAt: null,
    pushTimer: null,
    pushAt: 0,
    told: null,
    historyTimer: null,
    limits: new FrameLimiter(),
    video: await loadVideoState(ctx, got),
    presenceDirty: new Set(),
    unsaved: new Set(),
    shardLoad: new Map(),
    shards: new Map(),
    epoch: Date.now(),
    send(tag, event, shard) {
      const msg = typeof event === 'string' ? event : JSON.stringify(event);
      if (tag === 'v') for (const k of room.shardLoad.keys()) toShard(room, k, { tag, msg });
      // What every viewer gets goes to the room's own hidden watchers too (watch.ts); theirs stays here.
      const here = tag === 'v' ? WATCH_TAG : tag === 'performer' || tag === WATCH_TAG || isWatcherId(tag.slice(2)) ? tag : null;
      if (here === null) toShard(room, shard ?? room.sessions.get(tag.slice(2))?.shard ?? 0, { tag, msg });
      else
        for (const ws of open(room, here)) {
          try {
            ws.send(msg);
          } catch {
            // closing; webSocketClose cleans up
          }
        }
    },
  };
  for (const s of (await ctx.storage.list<RoomSession>({ prefix: 's:' })).values()) {
    room.sessions.set(s.id, s);
    room.shardLoad.set(s.shard ?? 0, (room.shardLoad.get(s.shard ?? 0) ?? 0) + 1);
  }
  return room;
}

export const now = () => meterTestHooks.now?.() ?? Date.now();

/** Open sockets with a tag ('performer', 'v' for viewers, 's:{id}' for one session). */
export function open(r: Room, tag: string): WebSocket[] {
  return r.ctx.getWebSockets(tag).filter((ws) => ws.readyState === 1);
}

/** Local development only: the simulator plays a performer who is not there. */
export function simulated(r: Room): boolean {
  return r.env.SIMULATOR === '1' && r.env.ENVIRONMENT === 'development' && open(r, 'performer').length === 0;
}

/** A minute may start: the performer's studio is connected (or, in development, the simulator plays them). */
export function performerHere(r: Room): boolean {
  return open(r, 'performer').length > 0 || simulated(r);
}

export async function save(r: Room, s: RoomSession): Promise<void> {
  if (s.state !== 'ended') await r.ctx.storage.put(`s:${s.id}`, s);
}

/** Saves `s` with every other session saved this way in the same turn (one put for a storm of joins). */
export function saveSoon(r: Room, s: RoomSession): void {
  if (r.unsaved.size === 0) queueMicrotask(() => void saveMany(r, [...r.unsaved].filter((x) => x.state !== 'ended')));
  r.unsaved.add(s);
}

/** Many sessions in as few puts as storage takes (128 keys each). */
export async function saveMany(r: Room, list: RoomSession[]): Promise<void> {
  for (const s of list) r.unsaved.delete(s);
  for (let i = 0; i < list.length; i += 128) await r.ctx.storage.put(Object.fromEntries(list.slice(i, i + 128).map((s) => [`s:${s.id}`, s])));
}

/** The room's own state, with `extra` entries (sessions) in the same put. */
export async function saveMeta(r: Room, extra: Record<string, unknown> = {}): Promise<void> {
  await r.ctx.storage.put({ show: r.show, history: r.history, mutes: [...r.mutes], perfGoneAt: r.perfGoneAt, ...extra });
}

/** The running private or exclusive session (the room's mode follows it). */
export const running = (r: Room) => runningOf(r.sessions.values());

/** The first frame a socket gets: who it is, the room, the (`lines` most) recent lines it may read, its session. */
export function welcome(r: Room, id: string, nick: string, s?: RoomSession, lines?: number): string {
  const role = id === 'performer' ? 'performer' : s?.uid ? 'member' : 'guest';
  const me = { id, nick, role, type: s?.type ?? null, muted: r.mutes.has(id) } as const;
  const seen = visibleLines(r.history, id);
  const event: RoomEvent = { t: 'welcome', me, room: snapshotOf(r.show, r.sessions.values()), history: seen.slice(Math.max(0, seen.length - (lines ?? seen.length))), session: s ? sessionView(s) : null };
  return JSON.stringify(event);
}

/**
 * A change of the viewer count alone reaches the viewers at most this often: joins and leaves by
 * the thousand (a storm, a popular show filling up) are not five snapshots a second to every
 * socket. A change of the mode or the open types goes out at once; a joiner's welcome has the count.
 */
export const COUNT_EVERY_MS = 2_000;

/** The room's snapshot to the viewers when it changed (the count alone: see COUNT_EVERY_MS; pushSoon then comes back for it). */
function tellViewers(r: Room): void {
  const room = snapshotOf(r.show, r.sessions.values());
  const key = JSON.stringify({ ...room, viewers: 0 });
  const at = Date.now();
  if (r.told?.key === key) {
    if (r.told.viewers === room.viewers) return;
    if (at < r.told.at + COUNT_EVERY_MS) return pushSoon(r, r.told.at + COUNT_EVERY_MS - at);
  }
  r.told = { key, viewers: room.viewers, at };
  r.send('v', { t: 'room', room });
}

/** Room snapshot to the viewers (when changed), what changed of the presence to the performer and the video states, now. */
export function pushNow(r: Room): void {
  if (r.pushTimer) clearTimeout(r.pushTimer);
  r.pushTimer = null;
  tellViewers(r);
  if (r.presenceDirty.size) r.send('performer', presenceChange(r));
  syncVideo(r);
}

/** The performer's whole presence list (a studio socket joined); what was pending is in it. */
export function presenceAll(r: Room): RoomEvent {
  r.presenceDirty.clear();
  return { t: 'presence', participants: participantsOf(r.sessions.values(), r.mutes, (s) => timedMuteOf(r, s, now())) };
}

function presenceChange(r: Room): RoomEvent {
  const upsert = [];
  const gone = [];
  for (const id of r.presenceDirty) {
    const s = r.sessions.get(id);
    if (s) upsert.push(participantOf(s, r.mutes, timedMuteOf(r, s, now())));
    else gone.push(id);
  }
  r.presenceDirty.clear();
  return { t: 'presence-change', upsert, gone };
}

/** The same, coalesced: a burst of joins costs one push (within `ms`; an earlier one asked for wins). */
export function pushSoon(r: Room, ms = 200): void {
  const at = Date.now() + ms;
  if (r.pushTimer && r.pushAt <= at) return;
  if (r.pushTimer) clearTimeout(r.pushTimer);
  r.pushAt = at;
  r.pushTimer = setTimeout(() => pushNow(r), ms);
}

/** The member's own tabs and the performer learn a session's state. */
export function sendSession(r: Room, s: RoomSession, reason: EndReason | null = null): void {
  const event: RoomEvent = { t: 'session', session: sessionView(s, reason) };
  r.send(`s:${s.id}`, event, s.shard);
  r.send('performer', event);
}

/** Ends a session once: D1 row, storage, both sides told, the member's sockets closed. */
export async function endSession(r: Room, s: RoomSession, reason: EndReason): Promise<void> {
  if (s.state === 'ended') return;
  const wasRunning = running(r) === s;
  s.state = 'ended';
  r.sessions.delete(s.id);
  r.presenceDirty.add(s.id);
  unplaceSession(r, s);
  await r.ctx.storage.delete(`s:${s.id}`);
  await endSessionRow(r.env.DB, s.id, reason, now(), s.minutes);
  if (s.freeHeld && s.freeDay !== undefined) await releaseFreeMinutes(r.env.DB, freeWho(s), s.freeDay, s.freeHeld);
  const ended: RoomEvent = { t: 'ended', sessionId: s.id, reason };
  sendSession(r, s, reason);
  r.send(`s:${s.id}`, ended, s.shard);
  r.send('performer', ended);
  toShard(r, s.shard ?? 0, { tag: `s:${s.id}`, code: 4000, reason });
  if (wasRunning) {
    // Voyeurs watch the private (or exclusive) itself: their sessions end with it, before another minute starts.
    for (const v of [...r.sessions.values()]) if (v.type === 'voyeur') await endSession(r, v, 'private_ended');
    pushNow(r);
  } else pushSoon(r);
  syncVideo(r);
}
