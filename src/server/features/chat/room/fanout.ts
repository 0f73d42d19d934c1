import type { Bindings } from '../../../env';
import { envPositiveInt } from '../../../lib/config';
import type { RoomSession } from './logic';
import type { RoomShard, ShardAttachment, ShardJoin, ShardOp } from './shard';
import type { Room } from './state';

// How a show's room reaches its viewers: each session is placed on a shard (shard.ts) when it is
// registered, the first with room for it, and every event for viewers becomes one call per shard
// that holds a receiver. Calls to one shard go one at a time through one stub, so they arrive in
// the room's order (Durable Objects deliver the calls of one stub in order); what the room sends
// while a call is under way goes in the next call, so a busy shard gets fewer, larger calls.

/** Viewers' sessions per shard (ROOM_SHARD_SIZE overrides: the tests spread a few viewers over several). */
export const SHARD_SIZE = 1_000;

export interface ShardLine {
  stub: DurableObjectStub<RoomShard> | null;
  ops: ShardOp[];
  busy: boolean;
  /** The number of the last op queued for this shard (1, 2, … in this room's life, `Room.epoch`). */
  seq: number;
  /** Calls in a row the shard did not take. */
  failures: number;
}

export const shardSize = (env: Bindings) => envPositiveInt(env.ROOM_SHARD_SIZE, SHARD_SIZE);

/** The shard of show `show` with index `k`. */
export function shardStub(env: Bindings, show: number, k: number): DurableObjectStub<RoomShard> {
  return env.ROOM_SHARD.get(env.ROOM_SHARD.idFromName(`show-${show}/${k}`));
}

function lineOf(r: Room, k: number): ShardLine {
  let line = r.shards.get(k);
  if (!line) r.shards.set(k, (line = { stub: null, ops: [], busy: false, seq: 0, failures: 0 }));
  line.stub ??= shardStub(r.env, r.show?.id ?? 0, k);
  return line;
}

/** The shard a new session goes to: the first whose sessions are fewer than the shard size. */
export function placeSession(r: Room, s: RoomSession): void {
  const size = shardSize(r.env);
  let k = 0;
  while ((r.shardLoad.get(k) ?? 0) >= size) k++;
  s.shard = k;
  r.shardLoad.set(k, (r.shardLoad.get(k) ?? 0) + 1);
}

/** A session left the room: its place on its shard is free again. */
export function unplaceSession(r: Room, s: RoomSession): void {
  const k = s.shard ?? 0;
  const n = (r.shardLoad.get(k) ?? 1) - 1;
  if (n > 0) r.shardLoad.set(k, n);
  else r.shardLoad.delete(k);
}

/** Queues an op for shard `k`; the queue goes out once the current turn ends (one call for all). */
export function toShard(r: Room, k: number, op: ShardOp): void {
  const line = lineOf(r, k);
  line.ops.push(op);
  line.seq++;
  if (line.ops.length === 1 && !line.busy) queueMicrotask(() => void flush(r, k, line));
}

/** A call to shard `k`; a broken stub stays broken (the shard restarted), so on failure once more on a new one. */
async function onShard<T>(r: Room, k: number, line: ShardLine, call: (stub: DurableObjectStub<RoomShard>) => Promise<T>): Promise<T> {
  try {
    return await call(line.stub!);
  } catch {
    line.stub = shardStub(r.env, r.show?.id ?? 0, k);
    return call(line.stub);
  }
}

/** A shard that did not take a call (overloaded, restarting) gets the same ops again after this long, doubled per failure up to 4 s. */
const RETRY_MS = 250;
/** Ops kept for a shard that does not take them; beyond, the oldest are dropped and the shard, seeing the gap, has its sockets rejoin. */
const OPS_KEPT_MAX = 5_000;

async function flush(r: Room, k: number, line: ShardLine): Promise<void> {
  if (line.busy || line.ops.length === 0) return;
  line.busy = true;
  const at = { epoch: r.epoch, from: line.seq - line.ops.length + 1 };
  const ops = line.ops.splice(0);
  try {
    await onShard(r, k, line, (stub) => stub.deliver(ops, at));
    line.failures = 0;
  } catch (e) {
    // Not taken: the same ops go again, ahead of those queued meanwhile (numbered, so the shard
    // skips any it did deliver before the answer was lost).
    console.error('room: shard unreachable', k, (e as Error).message);
    line.ops.unshift(...ops);
    if (line.ops.length > OPS_KEPT_MAX) line.ops.splice(0, line.ops.length - OPS_KEPT_MAX);
    line.failures++;
  } finally {
    line.busy = false;
  }
  if (line.failures) setTimeout(() => void flush(r, k, line), Math.min(4_000, RETRY_MS * 2 ** (line.failures - 1)));
  else if (line.ops.length) await flush(r, k, line);
}

/**
 * The join travels in a header (an upgrade request's body does not reach the object), kept well
 * under the platform's limit for a request's headers (128 KB); a welcome too large for it carries
 * fewer of the recent lines, the newest kept.
 */
const JOIN_HEADER_MAX = 48_000;

/** A viewer admitted to the room: the shard its socket joins and the join (X-Shard-Join) it takes there. */
export interface Admission {
  shard: number;
  header: string;
}

/**
 * The join of a viewer's socket to the shard of its session (the worker makes the socket there:
 * the room is not in the socket's path). `greeting(n)`: the welcome with at most n recent lines.
 * The join names the last op queued for that shard when the welcome was made: the shard sends the
 * socket the ops after it that it already delivered, and skips those the welcome covers that
 * reach it later (shard.ts).
 */
export function admission(r: Room, s: RoomSession, a: ShardAttachment, greeting: (lines?: number) => string): Admission {
  const k = s.shard ?? 0;
  const at = { epoch: r.epoch, seq: lineOf(r, k).seq };
  let lines: number | undefined;
  let header = encodeURIComponent(JSON.stringify({ a, greeting: greeting(), ...at } satisfies ShardJoin));
  while (header.length > JOIN_HEADER_MAX && lines !== 0) {
    lines = Math.floor((lines ?? r.history.length) / 2);
    header = encodeURIComponent(JSON.stringify({ a, greeting: greeting(lines), ...at } satisfies ShardJoin));
  }
  return { shard: k, header };
}

/** Which of these sessions have an open socket on their shards (a shard that does not answer: unknown, left out). */
export async function census(r: Room, sessions: RoomSession[]): Promise<{ here: Set<string>; unknown: Set<string> }> {
  const byShard = new Map<number, string[]>();
  for (const s of sessions) {
    const k = s.shard ?? 0;
    byShard.get(k)?.push(s.id) ?? byShard.set(k, [s.id]);
  }
  const here = new Set<string>();
  const unknown = new Set<string>();
  await Promise.all(
    [...byShard].map(async ([k, sids]) => {
      try {
        for (const sid of await onShard(r, k, lineOf(r, k), (stub) => stub.present(sids))) here.add(sid);
      } catch (e) {
        console.error('room: shard census', k, (e as Error).message);
        for (const sid of sids) unknown.add(sid);
      }
    }),
  );
  return { here, unknown };
}
