import { CHAT_GRACE_MS, CHAT_MINUTE_MS, FREE_CHAT_SECONDS_PER_DAY } from '../../shared/chat';
import type { ChatLine, EndReason, Participant, ParticipantRole, RoomEvent, RoomSnapshot } from '../../shared/chat';
import { spend } from '../lib/ledger.repo';
import { callActive } from '../features/billing/billing.service';
import { chargedMinuteStatement, endSessionRow, reserveFreeMinute, startSession, updateShowStatus } from '../features/chat/chat.repo';
import { HibernatingRoom } from './room';
import { billingStart, envMs, minuteStart, participantsOf, runningOf, sessionView, snapshotOf, utcDay, visibleLines, type RoomSession, type ShowConf } from './room-logic';
import { publishShowStatus, publishToUser } from './shards';

export interface RoomAttachment {
  /** 'performer' or the chat session id. */
  sid: string;
  role: ParticipantRole;
  uid: number | null;
  nick: string;
}

/** The simulator (local development only) accepts a request after this long. */
export const SIMULATOR_ACCEPT_MS = 1_500;
/** Tests only: the clock the rooms bill by (a property test drives it instead of waiting minutes). */
export const meterTestHooks: { now?: () => number } = {};

/**
 * The state and billing half of a show's room: sessions, history, mutes, the performer's absence,
 * per-minute charges from the stored start (ShowRoomMeter adds the alarm that drives them). ShowRoom
 * adds the sockets' commands and the worker's calls.
 */
export abstract class ShowRoomCore extends HibernatingRoom<RoomAttachment> {
  protected sessions = new Map<string, RoomSession>();
  protected show: ShowConf | null = null;
  protected history: ChatLine[] = [];
  protected mutes = new Set<string>();
  protected perfGoneAt: number | null = null;
  private busy = new Set<string>();
  private pushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(ctx: DurableObjectState, env: ShowRoomCore['env']) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const got = await ctx.storage.get<unknown>(['show', 'history', 'mutes', 'perfGoneAt']);
      this.show = (got.get('show') as ShowConf | undefined) ?? null;
      this.history = (got.get('history') as ChatLine[] | undefined) ?? [];
      this.mutes = new Set((got.get('mutes') as string[] | undefined) ?? []);
      this.perfGoneAt = (got.get('perfGoneAt') as number | undefined) ?? null;
      for (const s of (await ctx.storage.list<RoomSession>({ prefix: 's:' })).values()) this.sessions.set(s.id, s);
    });
  }

  protected get minuteMs(): number {
    return envMs(this.env.CHAT_MINUTE_MS, CHAT_MINUTE_MS);
  }
  protected get graceMs(): number {
    return envMs(this.env.CHAT_GRACE_MS, CHAT_GRACE_MS);
  }
  protected now(): number {
    return meterTestHooks.now?.() ?? Date.now();
  }
  /** A minute may start: the performer's studio is connected (or, in development, the simulator plays them). */
  protected get performerHere(): boolean {
    return this.open('performer').length > 0 || this.simulated;
  }
  /** Local development only: the simulator plays a performer who is not there. */
  protected get simulated(): boolean {
    return this.env.SIMULATOR === '1' && this.env.ENVIRONMENT === 'development' && this.open('performer').length === 0;
  }

  /** Open sockets with a tag ('performer', 'v' for viewers, 's:{id}' for one session). */
  protected open(tag: string): WebSocket[] {
    return this.ctx.getWebSockets(tag).filter((ws) => ws.readyState === 1);
  }

  protected send(tag: string, event: RoomEvent | string): void {
    const msg = typeof event === 'string' ? event : JSON.stringify(event);
    for (const ws of this.open(tag)) {
      try {
        ws.send(msg);
      } catch {
        // closing; webSocketClose cleans up
      }
    }
  }

  protected async save(s: RoomSession): Promise<void> {
    if (s.state !== 'ended') await this.ctx.storage.put(`s:${s.id}`, s);
  }

  protected async saveMeta(): Promise<void> {
    await this.ctx.storage.put({ show: this.show, history: this.history, mutes: [...this.mutes], perfGoneAt: this.perfGoneAt });
  }

  /** The running private or exclusive session (the room's mode follows it). */
  protected running(): RoomSession | null {
    return runningOf(this.sessions.values());
  }
  protected snapshot(): RoomSnapshot {
    return snapshotOf(this.show, this.sessions.values());
  }
  protected participants(): Participant[] {
    return participantsOf(this.sessions.values(), this.mutes);
  }

  /** The first frame a socket gets: who it is, the room, the lines it may read, its session. */
  protected welcome(id: string, nick: string, s?: RoomSession): string {
    const role = id === 'performer' ? 'performer' : s?.uid ? 'member' : 'guest';
    const me = { id, nick, role, type: s?.type ?? null, muted: this.mutes.has(id) } as const;
    const event: RoomEvent = { t: 'welcome', me, room: this.snapshot(), history: visibleLines(this.history, id), session: s ? sessionView(s) : null };
    return JSON.stringify(event);
  }

  /** Room snapshot to the viewers and presence to the performer, now. */
  protected pushNow(): void {
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    this.send('v', { t: 'room', room: this.snapshot() });
    this.send('performer', { t: 'presence', participants: this.participants() });
  }

  /** The same, coalesced: a burst of joins costs one push. */
  protected pushSoon(): void {
    this.pushTimer ??= setTimeout(() => this.pushNow(), 200);
  }

  /** The member's own tabs and the performer learn a session's state. */
  protected sendSession(s: RoomSession, reason: EndReason | null = null): void {
    const event: RoomEvent = { t: 'session', session: sessionView(s, reason) };
    this.send(`s:${s.id}`, event);
    this.send('performer', event);
  }

  /** Ends a session once: D1 row, storage, both sides told, the member's sockets closed. */
  protected async endSession(s: RoomSession, reason: EndReason): Promise<void> {
    if (s.state === 'ended') return;
    const wasRunning = this.running() === s;
    s.state = 'ended';
    this.sessions.delete(s.id);
    await this.ctx.storage.delete(`s:${s.id}`);
    await endSessionRow(this.env.DB, s.id, reason, this.now());
    const ended: RoomEvent = { t: 'ended', sessionId: s.id, reason };
    this.sendSession(s, reason);
    this.send(`s:${s.id}`, ended);
    this.send('performer', ended);
    for (const ws of this.open(`s:${s.id}`)) {
      try {
        ws.close(4000, reason);
      } catch {
        // already closing
      }
    }
    if (wasRunning) {
      // Voyeurs watch the private (or exclusive) itself: their sessions end with it, before another minute starts.
      for (const v of [...this.sessions.values()]) if (v.type === 'voyeur') await this.endSession(v, 'private_ended');
      this.pushNow();
    } else this.pushSoon();
  }

  /**
   * Charges minute `m` through the ledger (reference chat:{id}:{m}: a repeated alarm or retry is
   * a no-op). False when the session ended because the minute could not be paid.
   */
  protected async charge(s: RoomSession, m: number): Promise<boolean> {
    if (s.uid === null || s.price <= 0 || this.busy.has(s.id)) return s.state !== 'ended';
    this.busy.add(s.id);
    try {
      const db = this.env.DB;
      // Voice-call session: the connected call pays (the member's coins stay); once it is gone, so is the chat.
      const byCall = typeof s.phone === 'number';
      if (byCall && !(await callActive(db, s.phone as number))) {
        await this.endSession(s, 'call_ended');
        return false;
      }
      const r = await spend(db, { userId: s.uid, showId: this.show?.id ?? 0, amount: s.price, reason: 'chat', ref: `chat:${s.id}:${m}`, from: byCall ? 'payments' : undefined }, [
        chargedMinuteStatement(db, s.id, m, byCall ? 0 : s.price),
      ]);
      if (!r.ok && r.error !== 'duplicate') {
        await this.endSession(s, 'no_coins');
        return false;
      }
      if (r.ok && !byCall) s.coins += s.price;
      s.minutes = Math.max(s.minutes, m);
      s.balance = r.coins;
      if (s.state === 'ended') return false;
      await this.save(s);
      if (r.ok) this.ctx.waitUntil(publishToUser(this.env, s.uid, { type: 'user:coins', coins: r.coins }).catch(() => undefined));
      this.sendSession(s);
      if (!byCall && r.coins !== null && r.coins < s.price && !s.warned) {
        s.warned = true;
        await this.save(s);
        const now = this.now();
        const next = minuteStart(billingStart(s) ?? now, this.minuteMs, s.minutes + 1);
        const warn: RoomEvent = { t: 'warn', code: 'coins_low', sessionId: s.id, seconds: Math.max(0, Math.ceil((next - now) / 1000)) };
        this.send(`s:${s.id}`, warn);
        this.send('performer', warn);
      }
      return true;
    } finally {
      this.busy.delete(s.id);
    }
  }

  /** A free session's next minute comes out of the visitor's daily allowance. */
  protected async reserveFree(s: RoomSession, m: number): Promise<boolean> {
    if (this.busy.has(s.id)) return true;
    this.busy.add(s.id);
    try {
      const who = s.uid ? `u:${s.uid}` : `v:${s.visitor}`;
      if (!(await reserveFreeMinute(this.env.DB, who, utcDay(Date.now()), Math.floor(FREE_CHAT_SECONDS_PER_DAY / 60)))) {
        await this.endSession(s, 'free_expired');
        return false;
      }
      s.minutes = Math.max(s.minutes, m);
      await this.save(s);
      await chargedMinuteStatement(this.env.DB, s.id, m, 0).run();
      return true;
    } finally {
      this.busy.delete(s.id);
    }
  }

  /** Starts a pending private or exclusive: minute 1 is charged at once. */
  protected async acceptSession(s: RoomSession): Promise<boolean> {
    if (s.state !== 'pending') return false;
    const now = this.now();
    s.state = 'active';
    s.startedAt = now;
    await this.save(s);
    await startSession(this.env.DB, s.id, now);
    if (!(await this.charge(s, 1))) return false;
    if (s.type === 'exclusive') {
      for (const v of [...this.sessions.values()]) if (v.type === 'voyeur') await this.endSession(v, 'exclusive');
    }
    this.pushNow();
    await this.schedule();
    return true;
  }

  /** The performer's studio is gone for the grace period: the show goes offline by itself. */
  protected async goOffline(): Promise<void> {
    if (!this.show) return;
    this.perfGoneAt = null;
    await updateShowStatus(this.env.DB, this.show.id, { online: false }, Math.floor(Date.now() / 1000));
    await publishShowStatus(this.env, [{ id: this.show.id, online: false }]).catch(() => undefined);
    await this.applyShow({ ...this.show, online: false });
  }

  /** A new show state: offline or paused ends the paid sessions (offline all of them). */
  protected async applyShow(conf: ShowConf): Promise<void> {
    this.show = conf;
    if (!conf.online) this.perfGoneAt = null;
    await this.saveMeta();
    for (const s of [...this.sessions.values()]) {
      if (!conf.online || (conf.paused && s.type !== 'free')) await this.endSession(s, 'offline');
    }
    this.pushNow();
    await this.schedule();
  }

  /** Sets the one alarm at the earliest due time (show-room-meter.ts). */
  protected abstract schedule(): Promise<void>;
}
