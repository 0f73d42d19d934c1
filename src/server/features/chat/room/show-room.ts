import type { EndReason, SessionView } from '../../../../shared/chat';
import type { Bindings } from '../../../env';
import { HibernatingRoom } from '../../../realtime/room';
import { videoIce, videoWhipEnd, videoWhipPublish, type IceAnswer } from '../../video/video-room.service';
import { onFrame } from './lines';
import { parseCommand, ROOM_SOCKETS_PER_SESSION, type ShowConf } from './logic';
import { SayOrder } from './say-order';
import { safetyChanged, safetyJoined, safetyLoaded } from './safety';
import { tick } from './meter';
import { end, endLoginSessions, extend, left, performerJoined, performerJoining, register, setShow, viewersGone, viewerJoined, type NewRoomSession, type RegisterResult } from './sessions';
import { admission, type Admission } from './fanout';
import type { FrameReply } from './shard';
import { loadRoom, open, welcome, type Room, type RoomAttachment } from './state';
import { watcherFrame, watcherJoin, watcherLeft } from './watch';
import { isWatcherId } from '../../../../shared/video';
import type { TipAction, TipGoal, TipMenuItem } from '../../../../shared/tips';
import { goalChanged, menuChanged, tippedFor } from './tips';

/** Who joins, as the worker verified it from the room token (header X-Room-Identity). */
export interface RoomIdentity {
  /** 'watcher': an operator's hidden watch (watch.ts), from the operators' route only. */
  role: 'performer' | 'member' | 'guest' | 'watcher';
  /** The chat session id, or 'performer'. */
  sub: string;
  uid: number | null;
  /** The login the token was issued to (null for guests). */
  login: string | null;
}

/**
 * One show's live room (binding ROOM, idFromName(`show-${id}`)): the performer's and every
 * viewer's hibernating socket, the sessions and their per-minute billing (sessions.ts, meter.ts),
 * chat with history and moderation (lines.ts), and the video signalling (features/video). This
 * class only holds the state (state.ts) and hands each call, frame and alarm to those modules.
 */
export class ShowRoom extends HibernatingRoom<RoomAttachment> {
  /** The room's state (public for the Workers tests' runInDurableObject). */
  room!: Room;
  private order = new SayOrder();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.room = await loadRoom(ctx, env);
    });
  }

  /** The studio's socket (the worker verified the performer's token, header X-Room-Identity); viewers join their shard (admit). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('expected websocket', { status: 426 });
    let who: RoomIdentity;
    try {
      who = JSON.parse(request.headers.get('X-Room-Identity') ?? '') as RoomIdentity;
    } catch {
      return new Response('no identity', { status: 400 });
    }
    const r = this.room;
    if (who.role === 'watcher') {
      if (!r.show?.online) return Response.json({ message: 'show_not_online' }, { status: 409 });
      const w = watcherJoin(r, who.uid, who.login);
      return this.acceptSocket(w.a, w.frames, w.tags)[0];
    }
    if (who.role !== 'performer') return new Response('viewers join their shard', { status: 400 });
    if (open(r, 'performer').length >= ROOM_SOCKETS_PER_SESSION) return Response.json({ message: 'too_many_sockets' }, { status: 429 });
    await performerJoining(r);
    const nick = r.show?.name ?? 'performer';
    const res = this.accept({ sid: 'performer', role: 'performer', uid: who.uid, nick, login: who.login }, welcome(r, 'performer', nick), ['performer']);
    await performerJoined(r);
    void safetyLoaded(r).catch(() => undefined);
    return res;
  }

  /**
   * A viewer's socket is coming (the worker verified its token): its session must be running here.
   * Answers the shard to join and the join (fanout.ts admission); the socket is counted as there
   * from now (if it never reaches its shard, the census before the next charge finds it missing).
   */
  admit(who: RoomIdentity): Admission | null {
    const r = this.room;
    const s = r.sessions.get(who.sub);
    if (!s || s.uid !== who.uid || who.role === 'performer' || who.role === 'watcher') return null;
    const a = { sid: s.id, role: who.role, uid: who.uid, nick: s.nick, login: who.login, show: r.show?.id ?? 0 };
    const admitted = admission(r, s, a, (lines) => welcome(r, s.id, s.nick, s, lines));
    viewerJoined(r, s);
    void safetyJoined(r, s);
    return admitted;
  }

  // ---- calls from the worker (RPC) ----

  register(n: NewRoomSession, show: ShowConf): Promise<RegisterResult> {
    return register(this.room, n, show);
  }

  /** The studio (or the worker) changed the show; `studio`: the performer must connect within the grace. */
  setShow(show: ShowConf, studio = false): Promise<void> {
    return setShow(this.room, show, studio);
  }

  end(sessionId: string, reason: EndReason): Promise<SessionView | null> {
    return end(this.room, sessionId, reason);
  }

  extend(sessionId: string): Promise<{ session: SessionView; leaseUntil: number; leaseMs: number } | null> {
    return extend(this.room, sessionId);
  }

  /**
   * A login of member `uid` ended (logout, password change): its sessions end (minutes stop, both
   * sides told, sockets closed) and, for the performer, the studio's sockets close (a studio whose
   * login lives on reconnects with a fresh token). Answers the ended ids.
   */
  async endLogin(uid: number, sessionIds: string[], performer: boolean): Promise<string[]> {
    const ended = await endLoginSessions(this.room, uid, sessionIds);
    if (performer) for (const ws of open(this.room, 'performer')) if (this.attachment(ws)?.uid === uid) ws.close(4001, 'logout');
    return ended;
  }

  /** The studio changed the show's word list or moderators (room/safety.ts reads them again). */
  safetyChanged(): Promise<void> {
    return safetyChanged(this.room);
  }

  /** A booked tip with its menu action and the goal after it (room/tips.ts); the studio's menu and goal changes. */
  tip(sessionId: string, coins: number, action: TipAction | null, goal: TipGoal | null): Promise<boolean> {
    return tippedFor(this.room, sessionId, coins, action, goal);
  }

  tipsChanged(change: { menu?: TipMenuItem[]; goal?: TipGoal | null }): Promise<void> {
    if (change.menu) menuChanged(this.room, change.menu);
    return change.goal !== undefined ? goalChanged(this.room, change.goal, true) : Promise.resolve();
  }

  /**
   * The ICE servers for the performer or a session sent video now (TURN costs money: null for
   * anyone else); 'unavailable' when the engine fails (logged here: errors do not cross RPC quietly).
   */
  async videoIce(sid: string): Promise<IceAnswer | null | 'unavailable'> {
    try {
      return await videoIce(this.room, sid);
    } catch (e) {
      console.error('video: ice servers', (e as Error).message);
      return 'unavailable';
    }
  }

  /** OBS over WHIP (whip.routes.ts checked the key and the offer): the show's publication, or why not. */
  whipPublish(sdp: string): ReturnType<typeof videoWhipPublish> {
    return videoWhipPublish(this.room, sdp);
  }

  whipEnd(id: string): Promise<boolean> {
    return videoWhipEnd(this.room, id);
  }

  /** A line of the recent chat as sent (a report's snapshot) and its sender's account when known; null when gone or a notice. */
  line(id: string): { nick: string; text: string; performer: boolean; uid: number | null } | null {
    const l = this.room.history.find((x) => x.id === id);
    if (!l || l.role === 'system') return null;
    return { nick: l.nick, text: l.text, performer: l.role === 'performer', uid: this.room.sessions.get(l.from)?.uid ?? null };
  }

  /** The viewers the room holds now (its sessions, as the performer's presence list counts them): the operators' list of live shows. */
  viewerCount(): number {
    return this.room.sessions.size;
  }

  // ---- calls from the viewers' shards (shard.ts) ----

  /** A viewer's frame (its limits passed on the shard): what goes back to that socket. */
  async frame(a: RoomAttachment, message: string): Promise<FrameReply> {
    const reply: FrameReply = { send: [] };
    const socket = { send: (m: string) => void reply.send.push(m), close: (code: number, reason: string) => void (reply.close = { code, reason }) };
    await onFrame(this.room, socket, a, message, false);
    return reply;
  }

  viewersGone(sids: string[]): Promise<void> {
    return viewersGone(this.room, sids);
  }

  // ---- sockets and the alarm ----

  /** The studio's frames (its say frames in the order the page numbered them, say-order.ts). */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const a = this.attachment(ws);
    if (a && isWatcherId(a.sid)) return watcherFrame(this.room, ws, a, message);
    const cmd = typeof message === 'string' ? parseCommand(message) : null;
    const release = cmd?.t === 'say' && cmd.n !== undefined ? await this.order.turn(ws, cmd.n) : undefined;
    try {
      await onFrame(this.room, ws, a, message);
    } finally {
      release?.();
    }
  }

  protected async left(a: RoomAttachment | null): Promise<void> {
    if (a && isWatcherId(a.sid)) return watcherLeft(this.room);
    return left(this.room, a);
  }

  override alarm(): Promise<void> {
    return tick(this.room);
  }
}
