import { CHAT_HISTORY, EXTERNAL_LEASE_MS, ROOM_FLOOD_CLOSE_CODE, type ChatLine, type EndReason, type RoomEvent, type SessionType, type SessionView } from '../../shared/chat';
import { addBans } from '../features/chat/chat.repo';
import { cannedLine } from './room-simulator';
import { cleanText, envMs, FrameLimiter, frameKind, isPerformerCommand, parseCommand, ROOM_SOCKETS_PER_SESSION, sessionView, type FrameVerdict, type RoomSession, type ShowConf } from './room-logic';
import type { RoomAttachment } from './show-room-core';
import { ShowRoomVideo } from './show-room-video';

/** Who joins, as the worker verified it from the room token (header X-Room-Identity). */
export interface RoomIdentity {
  role: 'performer' | 'member' | 'guest';
  /** The chat session id, or 'performer'. */
  sub: string;
  uid: number | null;
}

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

let lineSeq = 0;
/** The chat history is written at most this often. */
const HISTORY_WRITE_MS = 1_000;

/**
 * One show's live room (binding ROOM, idFromName(`show-${id}`)): the performer's and every
 * viewer's hibernating socket, the sessions and their per-minute billing (ShowRoomCore), chat
 * with history, length cap, rate limit, mute, kick and ban, typing, presence, and signalling for
 * video. The worker creates sessions (register), changes the show (setShow), ends and tips.
 */
export class ShowRoom extends ShowRoomVideo {
  /** Every frame of every sender passes these limits first (one viewer's flood must not slow the room). */
  private limits = new FrameLimiter();
  private historyTimer: ReturnType<typeof setTimeout> | null = null;

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('expected websocket', { status: 426 });
    let who: RoomIdentity;
    try {
      who = JSON.parse(request.headers.get('X-Room-Identity') ?? '') as RoomIdentity;
    } catch {
      return new Response('no identity', { status: 400 });
    }
    const full = () => Response.json({ message: 'too_many_sockets' }, { status: 429 });
    if (who.role === 'performer') {
      if (this.open('performer').length >= ROOM_SOCKETS_PER_SESSION) return full();
      this.perfGoneAt = null;
      await this.resumeMinutes(this.now());
      const nick = this.show?.name ?? 'performer';
      const res = this.accept({ sid: 'performer', role: 'performer', uid: who.uid, nick }, this.welcome('performer', nick), ['performer']);
      for (const s of this.sessions.values()) if (s.state === 'pending') this.send('performer', { t: 'request', session: sessionView(s) });
      this.send('performer', { t: 'presence', participants: this.participants() });
      await this.schedule();
      this.syncVideo('performer');
      return res;
    }
    const s = this.sessions.get(who.sub);
    if (!s || s.uid !== who.uid) return Response.json({ message: 'chat.session_ended' }, { status: 410 });
    if (this.open(`s:${s.id}`).length >= ROOM_SOCKETS_PER_SESSION) return full();
    const res = this.accept({ sid: s.id, role: who.role, uid: who.uid, nick: s.nick }, this.welcome(s.id, s.nick, s), ['v', `s:${s.id}`]);
    if (s.goneAt !== null) {
      s.goneAt = null;
      await this.save(s);
      await this.schedule();
    }
    this.syncVideo(s.id);
    this.pushSoon();
    return res;
  }

  /**
   * Sends a line to whom it is for and keeps it for late joiners. The history is written at most
   * once a second, after the lines went out (a write per line made the room's tail twice the
   * floor's; a crash loses at most that second of history, never a sent line).
   */
  private addLine(line: ChatLine): void {
    this.history.push(line);
    if (this.history.length > CHAT_HISTORY) this.history.splice(0, this.history.length - CHAT_HISTORY);
    const msg = JSON.stringify({ t: 'line', line } satisfies RoomEvent);
    this.send('performer', msg);
    if (line.to) this.send(`s:${line.to === 'performer' ? line.from : line.to}`, msg);
    else this.send('v', msg);
    this.historyTimer ??= setTimeout(() => {
      this.historyTimer = null;
      void this.ctx.storage.put('history', this.history, { allowUnconfirmed: true });
    }, HISTORY_WRITE_MS);
  }

  // ---- calls from the worker (RPC) ----

  /** A new session of this show (the worker checked the catalogue's rules and reserved its limits). */
  async register(n: NewRoomSession, show: ShowConf): Promise<RegisterResult> {
    if (JSON.stringify(show) !== JSON.stringify(this.show)) {
      this.show = show;
      await this.ctx.storage.put('show', show);
    }
    const now = this.now();
    if (n.type === 'voyeur' && this.running()?.type === 'exclusive') return { ok: false, code: 'chat.show_not_available_exclusive_in_use' };
    const pending = n.type === 'private' || n.type === 'exclusive';
    const s: RoomSession = {
      ...n,
      state: pending ? 'pending' : 'active',
      createdAt: now,
      startedAt: pending ? null : now,
      // a free session's first minute was reserved by the worker
      minutes: n.type === 'free' ? 1 : 0,
      coins: 0,
      balance: null,
      warned: false,
      goneAt: now,
      // A partner show's session holds a lease its page extends (POST /api/chat/external/extend).
      leaseUntil: show.providerId > 1 ? now + this.leaseMs : null,
      // Started while the performer is away: its minutes begin when they are back.
      heldAt: !pending && !this.performerHere ? now : null,
    };
    this.sessions.set(s.id, s);
    await this.save(s);
    if (n.type === 'voyeur' && s.heldAt === null && !(await this.charge(s, 1))) return { ok: false, code: 'chat.no_coins' };
    if (pending) this.send('performer', { t: 'request', session: sessionView(s) });
    this.pushSoon();
    await this.schedule();
    return { ok: true, session: sessionView(s) };
  }

  /** The studio (or the worker) changed the show; `studio`: the performer must connect within the grace. */
  async setShow(show: ShowConf, studio = false): Promise<void> {
    if (studio && show.online && this.open('performer').length === 0 && this.perfGoneAt === null) this.perfGoneAt = Date.now();
    await this.applyShow(show);
  }

  /** Ends a session (the member's end call, a beacon); null when the room does not hold it. */
  async end(sessionId: string, reason: EndReason): Promise<SessionView | null> {
    const s = this.sessions.get(sessionId);
    if (!s) return null;
    await this.endSession(s, reason);
    return sessionView(s, reason);
  }

  protected get leaseMs(): number {
    return envMs(this.env.CHAT_EXTERNAL_LEASE_MS, EXTERNAL_LEASE_MS);
  }

  /**
   * Extends an external session's lease (the worker checked that the caller owns it); null when
   * the room does not hold it running (ended, unknown, or a session without a lease).
   */
  async extend(sessionId: string): Promise<{ session: SessionView; leaseUntil: number; leaseMs: number } | null> {
    const s = this.sessions.get(sessionId);
    if (!s || s.state === 'ended' || !s.leaseUntil) return null;
    s.leaseUntil = Date.now() + this.leaseMs;
    await this.save(s);
    await this.schedule();
    return { session: sessionView(s), leaseUntil: s.leaseUntil, leaseMs: this.leaseMs };
  }

  /**
   * A login of member `uid` ended (logout, password change): its sessions end (minutes stop, both
   * sides told, sockets closed) and, for the performer, the studio's sockets close (a studio whose
   * login lives on reconnects with a fresh token). Answers the ended ids.
   */
  async endLogin(uid: number, sessionIds: string[], performer: boolean): Promise<string[]> {
    const mine = sessionIds.map((id) => this.sessions.get(id)).filter((s): s is RoomSession => s?.uid === uid);
    for (const s of mine) await this.endSession(s, 'logout');
    if (performer) for (const ws of this.open('performer')) if (this.attachment(ws)?.uid === uid) ws.close(4001, 'logout');
    return mine.map((s) => s.id);
  }

  /** A tip the worker booked: everyone in the room sees it. */
  tipped(sessionId: string, coins: number): boolean {
    const s = this.sessions.get(sessionId);
    if (!s) return false;
    const event: RoomEvent = { t: 'tip', from: s.id, nick: s.nick, coins, ts: Date.now() };
    this.send('performer', event);
    this.send('v', event);
    return true;
  }

  // ---- sockets ----

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const a = this.attachment(ws);
    const error = (code: string) => ws.send(JSON.stringify({ t: 'error', code } satisfies RoomEvent));
    const ping = message === 'ping';
    const cmd = ping || typeof message !== 'string' ? null : parseCommand(message);
    // The performer answers each viewer's signals: a bucket per viewer in the room (or the relay),
    // so a full room is not a flood; signals to anyone else share one bucket.
    const peer = a?.role === 'performer' && cmd?.t === 'signal' && (cmd.to === 'relay' || this.sessions.has(cmd.to)) ? cmd.to : undefined;
    const verdict = this.limits.take(a?.sid ?? '', ping ? 'ping' : frameKind(cmd), Date.now(), peer);
    if (verdict !== 'pass') return this.refuse(ws, verdict, error);
    if (ping) return ws.send('pong');
    if (!a || !cmd) return error('chat.bad_command');
    const performer = a.role === 'performer';
    if (isPerformerCommand(cmd) && !performer) return error('chat.forbidden');
    const mine = performer ? null : this.sessions.get(a.sid);
    if (!performer && !mine) return error('chat.session_ended');
    switch (cmd.t) {
      case 'say': {
        if (!performer && this.mutes.has(a.sid)) return error('chat.muted');
        const text = cleanText(cmd.text);
        if (!text) return error('chat.empty');
        let to: string | undefined;
        if (cmd.to !== undefined) {
          const ok = performer ? this.sessions.has(cmd.to) : cmd.to === 'performer' && mine?.state === 'active' && (mine.type === 'private' || mine.type === 'exclusive');
          if (!ok) return error('chat.no_private');
          to = cmd.to;
        }
        const line: ChatLine = { id: `${Date.now().toString(36)}-${++lineSeq}`, from: a.sid, nick: a.nick, role: a.role, text, ts: Date.now(), ...(to ? { to } : {}) };
        this.addLine(line);
        if (!performer && this.simulated) this.simulateAnswer(line);
        return;
      }
      case 'typing': {
        const event: RoomEvent = { t: 'typing', from: a.sid, nick: a.nick };
        return this.send(performer ? 'v' : 'performer', event);
      }
      case 'signal':
        return this.videoSignal(a, cmd.to, cmd.data, error);
      case 'video':
        return this.videoCommand(cmd.live, error);
      default:
        return this.command(cmd.t, cmd.sessionId, error);
    }
  }

  /** A frame over its sender's limit: told once per window, dropped, or (a flood that goes on) the socket closed. */
  private refuse(ws: WebSocket, verdict: Exclude<FrameVerdict, 'pass'>, error: (code: string) => void): void {
    if (verdict === 'tell') return error('chat.rate_limited');
    if (verdict === 'drop') return;
    try {
      ws.close(ROOM_FLOOD_CLOSE_CODE, 'chat.rate_limited');
    } catch {
      // already closing
    }
  }

  private async command(t: string, sessionId: string, error: (code: string) => void): Promise<void> {
    const s = this.sessions.get(sessionId);
    if (!s) return error('chat.no_session');
    if (t === 'accept') {
      if (s.state !== 'pending') return error('chat.no_session');
      await this.acceptSession(s);
    } else if (t === 'decline') await this.endSession(s, 'declined');
    else if (t === 'end') await this.endSession(s, 'performer');
    else if (t === 'kick') await this.endSession(s, 'kicked');
    else if (t === 'ban') {
      await addBans(this.env.DB, this.show?.id ?? 0, [...(s.uid ? [`u:${s.uid}`] : []), `v:${s.visitor}`], Math.floor(Date.now() / 1000));
      await this.endSession(s, 'banned');
    } else if (t === 'mute' || t === 'unmute') {
      if (t === 'mute') this.mutes.add(s.id);
      else this.mutes.delete(s.id);
      await this.saveMeta();
      this.pushNow();
    }
  }

  /** Local development: a neutral canned answer a moment later, as the absent performer. */
  private simulateAnswer(to: ChatLine): void {
    setTimeout(() => {
      if (!this.simulated || !this.sessions.has(to.from)) return;
      const text = cannedLine(lineSeq);
      this.addLine({ id: `${Date.now().toString(36)}-${++lineSeq}`, from: 'performer', nick: this.show?.name ?? 'performer', role: 'performer', text, ts: Date.now(), ...(to.to ? { to: to.from } : {}) });
    }, 1_200);
  }

  protected async left(a: RoomAttachment | null): Promise<void> {
    if (!a) return;
    const now = this.now();
    if (a.role === 'performer') {
      if (this.open('performer').length === 0 && this.show?.online) {
        this.perfGoneAt = now;
        await this.saveMeta();
        await this.holdMinutes(now);
        await this.schedule();
      }
      return;
    }
    const s = this.sessions.get(a.sid);
    if (s && s.goneAt === null && this.open(`s:${s.id}`).length === 0) {
      s.goneAt = now;
      await this.save(s);
      await this.schedule();
    }
    this.pushSoon();
  }
}
