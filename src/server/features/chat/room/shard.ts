import { HibernatingRoom } from '../../../realtime/room';
import { ROOM_FLOOD_CLOSE_CODE, ROOM_FRAME_MAX, type RoomEvent } from '../../../../shared/chat';
import { renewal } from '../../../lib/room-token';
import { roomOf } from '../chat.service';
import { FrameLimiter, frameKind, parseCommand, ROOM_SOCKETS_PER_SESSION } from './logic';
import { SayOrder } from './say-order';
import type { RoomAttachment } from './state';

// A share of one show's viewers (binding ROOM_SHARD, idFromName(`show-${id}/${k}`)): their
// hibernating sockets, nothing else. The show's room (show-room.ts) keeps the sessions, the money
// and the order of events, and hands each event to the shards that hold its receivers in one call
// per shard (deliver); a viewer's frame passes the sender's limits here and then goes to the room
// (frame). A shard keeps nothing in storage: a restarted one has lost only its sockets, whose
// pages reconnect and get the room's recent lines again with the welcome.

/** A viewer socket's attachment on a shard: the room's attachment and its show. */
export interface ShardAttachment extends RoomAttachment {
  show: number;
}

/** What the room asks of a shard, in order: a frame for every socket with a tag, or those sockets closed. */
export type ShardOp = { tag: string; msg: string } | { tag: string; code: number; reason: string };

/** The room's answer to a viewer's frame: what goes back to that socket, and whether it closes. */
export interface FrameReply {
  send: string[];
  close?: { code: number; reason: string };
}

/**
 * A socket joining a shard (the room checked the session and made the welcome): `seq` is the last
 * op the room had queued for this shard, in its instance `epoch`, when it made the welcome.
 */
export interface ShardJoin {
  a: ShardAttachment;
  greeting: string;
  epoch: number;
  seq: number;
}

/** Where a call of ops stands in the room's numbering: its instance and the number of its first op. */
export interface OpsAt {
  epoch: number;
  from: number;
}

/** Ops a shard keeps after delivering them, for a socket whose welcome came before them and whose join comes after. */
const RECENT_OPS = 2_000;

/** How long a shard gathers sessions gone before it tells the room (their grace is 30 s). */
const GONE_BATCH_MS = 100;

export class RoomShard extends HibernatingRoom<ShardAttachment> {
  private limits = new FrameLimiter();
  private order = new SayOrder();
  /** Per sender, the last frame on its way to the room. */
  private queues = new Map<string, Promise<void>>();
  /** Sessions whose last socket closed, told to the room together (left). */
  private gone = new Set<string>();
  private goneTimer: ReturnType<typeof setTimeout> | null = null;
  /** The room instance whose ops this shard follows, the last of them delivered (null: not known since a restart) and the recent ones. */
  private epoch = 0;
  private applied: number | null = null;
  private recent: ShardOp[] = [];
  /** Sockets that joined before ops their welcome covers arrived here: those ops (up to the number) are not for them. */
  private ahead = new Map<WebSocket, number>();
  /** One stub to the room for all frames: the calls of one stub arrive in order (a sender's lines stay in order). */
  private roomStub: ReturnType<typeof roomOf> | null = null;

  private room(show: number): ReturnType<typeof roomOf> {
    return (this.roomStub ??= roomOf(this.env, show));
  }

  /**
   * A viewer's socket, from the worker after the room admitted it (fanout.ts admission), with the
   * ShardJoin in the X-Shard-Join header. The ops the room queued after the welcome and this shard
   * already delivered follow the welcome at once; those the welcome covers and that come later are
   * skipped for it. 409: those ops are no longer here (or the room restarted since): the worker
   * asks the room again.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('expected websocket', { status: 426 });
    const join = JSON.parse(decodeURIComponent(request.headers.get('X-Shard-Join') ?? '')) as ShardJoin;
    if (this.open(`s:${join.a.sid}`).length >= ROOM_SOCKETS_PER_SESSION) return Response.json({ message: 'too_many_sockets' }, { status: 429 });
    if (join.epoch > this.epoch) this.follow(join.epoch);
    const tags = ['v', `s:${join.a.sid}`];
    const frames = [join.greeting];
    const applied = this.applied;
    if (join.epoch === this.epoch && applied !== null && applied > join.seq) {
      const first = applied - this.recent.length + 1;
      if (join.seq + 1 < first) return Response.json({ message: 'rejoin' }, { status: 409 });
      for (const op of this.recent.slice(join.seq + 1 - first)) if ('msg' in op && tags.includes(op.tag)) frames.push(op.msg);
    } else if (join.epoch < this.epoch) return Response.json({ message: 'rejoin' }, { status: 409 });
    const [res, ws] = this.acceptSocket(join.a, frames, tags);
    if (applied === null || applied < join.seq) this.ahead.set(ws, join.seq);
    return res;
  }

  /**
   * The room's events for this shard's sockets, in the room's order (one call per event, or a
   * batch: the room gathers what it sends while this shard is busy). Neighbouring events for the
   * same sockets go in one frame (sends, not bytes, are a fan-out's cost: a shard that falls behind
   * catches up instead of falling further behind).
   */
  deliver(ops: ShardOp[], at: OpsAt): void {
    if (at.epoch > this.epoch) this.follow(at.epoch);
    // A call from an instance of the room that has been replaced goes out as it is, not counted.
    const counted = at.epoch === this.epoch;
    if (counted && this.applied === null) {
      // Not known since this shard restarted: a socket whose welcome is older than these ops missed some, and starts again.
      for (const [ws, seq] of this.ahead) if (seq < at.from - 1) rejoin(ws);
    } else if (counted && this.applied !== null) {
      // A call sent again (its answer was lost): what was delivered is not sent twice.
      const done = this.applied - at.from + 1;
      if (done >= ops.length) return;
      if (done > 0) {
        ops = ops.slice(done);
        at = { epoch: at.epoch, from: this.applied + 1 };
      }
      // Ops the room had to drop (this shard did not take them for long): every socket here starts again.
      else if (done < 0) for (const ws of this.ctx.getWebSockets()) rejoin(ws);
    }
    for (let i = 0; i < ops.length; ) {
      const op = ops[i]!;
      let j = i + 1;
      if ('msg' in op) {
        let size = op.msg.length;
        for (let next = ops[j]; next && next.tag === op.tag && 'msg' in next && size + next.msg.length < ROOM_FRAME_MAX; next = ops[++j]) size += next.msg.length + 1;
      }
      const frame = 'msg' in op ? frameOf(ops, i, j) : null;
      for (const ws of this.ctx.getWebSockets(op.tag)) {
        // A socket that joined ahead of some of these ops gets only those after its welcome.
        const skip = counted && this.ahead.size ? (this.ahead.get(ws) ?? 0) - at.from - i + 1 : 0;
        if (skip >= j - i) continue;
        try {
          if (frame === null) ws.close((op as { code: number }).code, (op as { reason: string }).reason);
          else ws.send(skip > 0 ? frameOf(ops, i + skip, j) : frame);
        } catch {
          // closing right now; webSocketClose cleans up
        }
      }
      i = j;
    }
    if (!counted) return;
    this.applied = at.from + ops.length - 1;
    this.recent.push(...ops);
    if (this.recent.length > RECENT_OPS) this.recent.splice(0, this.recent.length - RECENT_OPS);
    for (const [ws, seq] of this.ahead) if (seq <= this.applied) this.ahead.delete(ws);
  }

  /** Which of these sessions have an open socket here (the room's count before it bills). */
  present(sids: string[]): string[] {
    return sids.filter((sid) => this.open(`s:${sid}`).length > 0);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const a = this.attachment(ws);
    if (!a) return;
    // The sender's limits hold here, before the room is called: a flood costs the room nothing.
    const cmd = typeof message === 'string' ? parseCommand(message) : null;
    const verdict = this.limits.take(a.sid, frameKind(cmd), Date.now());
    if (verdict === 'tell') return ws.send(JSON.stringify({ t: 'error', code: 'chat.rate_limited' } satisfies RoomEvent));
    if (verdict === 'drop') return;
    if (verdict === 'close') return ws.close(ROOM_FLOOD_CLOSE_CODE, 'chat.rate_limited');
    if (!cmd) return ws.send(JSON.stringify({ t: 'error', code: 'chat.bad_command' } satisfies RoomEvent));
    // A fresh token is the shard's to give (the room verified the session at the join): a storm of reconnects then needs no API call.
    if (cmd.t === 'renew') return ws.send(await renewal(this.env, a, a.show));
    // A frame that came ahead of its socket's previous say waits for it (say-order.ts).
    const release = cmd.t === 'say' && cmd.n !== undefined ? await this.order.turn(ws, cmd.n) : undefined;
    // A sender's lines go to the room one after another (measured: calls made at once may arrive reordered).
    const before = (cmd.t === 'say' && this.queues.get(a.sid)) || Promise.resolve();
    const call = before.then(() => this.room(a.show).frame(a, message as string));
    const done = call.then(() => undefined, () => undefined);
    if (cmd.t === 'say') this.queues.set(a.sid, done);
    void done.then(() => this.queues.get(a.sid) === done && this.queues.delete(a.sid));
    release?.();
    let reply;
    try {
      reply = await call;
    } catch (e) {
      this.roomStub = null; // a broken stub stays broken
      throw e;
    }
    try {
      for (const m of reply.send) ws.send(m);
      if (reply.close) ws.close(reply.close.code, reply.close.reason);
    } catch {
      // closed meanwhile
    }
  }

  /**
   * A session's last socket here closed: the room hears it with the others gone within
   * GONE_BATCH_MS, in one call (a storm of closes is a few calls, not thousands). Lost if the shard
   * dies meanwhile: the room's census at its next tick finds those sessions without a socket.
   */
  protected async left(a: ShardAttachment | null): Promise<void> {
    if (!a || this.open(`s:${a.sid}`).length > 0) return;
    this.gone.add(a.sid);
    this.goneTimer ??= setTimeout(() => {
      this.goneTimer = null;
      const sids = [...this.gone].filter((sid) => this.open(`s:${sid}`).length === 0);
      this.gone.clear();
      if (sids.length === 0) return;
      this.room(a.show)
        .viewersGone(sids)
        .catch((e) => {
          this.roomStub = null;
          console.error('shard: gone', (e as Error).message);
        });
    }, GONE_BATCH_MS);
  }

  /** A new instance of the room numbers its ops anew: what this shard knew of the last one's is void. */
  private follow(epoch: number): void {
    this.epoch = epoch;
    this.applied = null;
    this.recent = [];
    this.ahead.clear();
  }

  private open(tag: string): WebSocket[] {
    return this.ctx.getWebSockets(tag).filter((ws) => ws.readyState === 1);
  }
}

/** Ops i..j-1 (messages) as one frame: the message itself when it is one, else a JSON array of them. */
function frameOf(ops: ShardOp[], i: number, j: number): string {
  return j - i === 1 ? (ops[i] as { msg: string }).msg : `[${ops.slice(i, j).map((o) => (o as { msg: string }).msg).join(',')}]`;
}

/** Closes a socket that missed ops: its page reconnects and gets a fresh welcome. */
function rejoin(ws: WebSocket): void {
  try {
    ws.close(1012, 'rejoin');
  } catch {
    // closing already
  }
}
