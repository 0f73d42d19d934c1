import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CHAT_RATE_BURST, parseRoomEvents, type ChatLine } from '../../src/shared/chat';
import { roomOf } from '../../src/server/features/chat/chat.service';
import { shardStub } from '../../src/server/features/chat/room/fanout';
import type { RoomShard } from '../../src/server/features/chat/room/shard';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { verifyRoomToken } from '../../src/server/lib/room-token';
import { Client } from './helpers';
import { chatMember, joinRoom, liveShow, sessionRow, startOk, viewer, type RoomSocket } from './chat-helpers';

// A show's viewers live on shards (ROOM_SHARD_SIZE is 2 here, vitest.workers.config.ts): the room
// sends each event once per shard, in its order; a shard that restarts loses only its sockets.

const shardsOf = (showId: number, sids: string[]) => runInDurableObject(roomOf(env, showId), (instance: ShowRoom) => sids.map((id) => instance.room.sessions.get(id)!.shard ?? 0));

/** Every line `room` receives until it has `count`, in arrival order. */
async function linesOf(room: RoomSocket, count: number): Promise<ChatLine[]> {
  const got: ChatLine[] = [];
  while (got.length < count) got.push((await room.next('line')).line);
  return got;
}

describe('viewers on shards', () => {
  it("every viewer, on whichever shard, gets every line, each sender's in the order sent", async () => {
    const { show, studio } = await liveShow(151);
    const fans = [];
    for (let i = 0; i < 5; i++) fans.push(await startOk(new Client(), show.universalId, 'free', `Fan${i}`));
    const rooms = await Promise.all(fans.map((f) => viewer(show.id, f)));
    expect(await shardsOf(show.id, fans.map((f) => f.sessionId))).toEqual([0, 0, 1, 1, 2]);
    // Three senders on three sockets (a viewer on shard 0, one on shard 2, the performer), interleaved.
    const senders = [rooms[0], rooms[4], studio];
    // Numbered as the page numbers them (room-socket.ts): the shard keeps that order.
    for (let n = 0; n < CHAT_RATE_BURST; n++) senders.forEach((s, i) => s.send({ t: 'say', text: `${i}:${n}`, n: n + 1 }));
    const total = senders.length * CHAT_RATE_BURST;
    for (const got of await Promise.all([...rooms, studio].map((r) => linesOf(r, total)))) {
      for (let i = 0; i < senders.length; i++) {
        expect(got.filter((l) => l.text.startsWith(`${i}:`)).map((l) => l.text)).toEqual(Array.from({ length: CHAT_RATE_BURST }, (_, n) => `${i}:${n}`));
      }
    }
    // A late joiner on a new shard gets the recent lines with its welcome.
    const late = await startOk(new Client(), show.universalId, 'free', 'Late');
    const lateRoom = await joinRoom(show.id, late.login, late.password);
    expect((await lateRoom.next('welcome')).history).toHaveLength(total);
    expect(await shardsOf(show.id, [late.sessionId])).toEqual([2]);
    for (const r of [...rooms, lateRoom, studio]) r.ws.close(1000);
  });

  it('a shard that restarts mid-show: the other shards miss nothing, its viewers come back to the lines they missed, and one who does not is timed out', async () => {
    const { show, studio } = await liveShow(152);
    const fans = [];
    for (let i = 0; i < 4; i++) fans.push(await startOk(new Client(), show.universalId, 'free', `Fan${i}`));
    const rooms = await Promise.all(fans.map((f) => viewer(show.id, f)));
    expect(await shardsOf(show.id, fans.map((f) => f.sessionId))).toEqual([0, 0, 1, 1]);
    studio.send({ t: 'say', text: 'before' });
    for (const r of rooms) expect((await r.next('line')).line.text).toBe('before');

    // Shard 1 restarts (a deploy, a crash): its sockets drop.
    await runInDurableObject(shardStub(env, show.id, 1), (_instance: RoomShard, state) => void setTimeout(() => state.abort('restart'), 0));
    await Promise.all([rooms[2].closed, rooms[3].closed]);
    studio.send({ t: 'say', text: 'while away' });
    for (const r of rooms.slice(0, 2)) expect((await r.next('line')).line.text).toBe('while away');

    // Fan2 reconnects (its page does so by itself) and gets what it missed; Fan3 never does.
    const back = await joinRoom(show.id, fans[2].login, fans[2].password);
    expect((await back.next('welcome')).history.map((l) => l.text)).toEqual(['before', 'while away']);
    studio.send({ t: 'say', text: 'after' });
    for (const r of [rooms[0], rooms[1], back]) expect((await r.next('line')).line.text).toBe('after');

    // The room's next tick counts Fan3's sockets on the new shard (none): its grace starts and it ends
    // as any viewer who left; Fan2 stays.
    const deadline = Date.now() + 10_000;
    while ((await sessionRow(fans[3].sessionId))?.state !== 'ended' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await sessionRow(fans[3].sessionId)).toMatchObject({ state: 'ended', end_reason: 'timeout' });
    expect(await sessionRow(fans[2].sessionId)).toMatchObject({ state: 'active' });
    for (const r of [rooms[0], rooms[1], back, studio]) r.ws.close(1000);
  });

  it('a token renewed over the socket (by the shard for a viewer, by the room for the studio) names the same session, show and login, and rejoins the session', async () => {
    const { show, studio } = await liveShow(153);
    const m = await chatMember();
    const member = await startOk(m.client, show.universalId, 'free');
    const guest = await startOk(new Client(), show.universalId, 'free', 'Guest');
    for (const a of [member, guest]) {
      const room = await viewer(show.id, a);
      room.send({ t: 'renew' });
      const { password } = await room.next('token');
      const claims = await verifyRoomToken(env, password, show.id);
      expect(claims).toEqual(await verifyRoomToken(env, a.password, show.id));
      expect(claims?.login ?? null).toEqual(a === member ? expect.any(String) : null);
      room.ws.close(1000);
      await room.closed;
      const again = await joinRoom(show.id, a.login, password);
      expect((await again.next('welcome')).session?.sessionId).toBe(a.sessionId);
      again.ws.close(1000);
    }
    studio.send({ t: 'renew' });
    const renewed = await verifyRoomToken(env, (await studio.next('token')).password, show.id);
    expect(renewed).toMatchObject({ sub: 'performer', role: 'performer', uid: expect.any(Number), login: expect.any(String) });
    studio.ws.close(1000);
  });

  it("a storm of closes reaches the room in one call per shard, and a socket back meanwhile is not gone", async () => {
    const { show, studio } = await liveShow(154);
    const fans: Awaited<ReturnType<typeof startOk>>[] = [];
    for (let i = 0; i < 5; i++) fans.push(await startOk(new Client(), show.universalId, 'free', `Fan${i}`));
    const rooms = await Promise.all(fans.map((f) => viewer(show.id, f)));
    expect(await shardsOf(show.id, fans.map((f) => f.sessionId))).toEqual([0, 0, 1, 1, 2]);
    // The room's RPC as the shards call it, recorded (RPC finds the method on the class: patched there, restored below).
    // The class is every room's: only this show's calls count (another room's late closes, from a test
    // before, may land meanwhile: seen once on a quiet machine).
    const calls: string[][] = [];
    const ours = new Set(fans.map((f) => f.sessionId));
    const proto = await runInDurableObject(roomOf(env, show.id), (instance: ShowRoom) => Object.getPrototypeOf(instance) as ShowRoom);
    const real = proto.viewersGone;
    proto.viewersGone = function (this: ShowRoom, sids: string[]) {
      if (sids.some((sid) => ours.has(sid))) calls.push([...sids]);
      return real.call(this, sids);
    };
    // Fan4 drops and is back at once; the four others drop together.
    rooms[4].ws.close(1000);
    await rooms[4].closed;
    const back = await viewer(show.id, fans[4]);
    for (const r of rooms.slice(0, 4)) r.ws.close(1000);
    const goneAt = () => runInDurableObject(roomOf(env, show.id), (instance: ShowRoom) => fans.map((f) => instance.room.sessions.get(f.sessionId)!.goneAt));
    const deadline = Date.now() + 5_000;
    while ((await goneAt()).slice(0, 4).some((g) => g === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const after = await goneAt();
    expect(after.slice(0, 4).every((g) => typeof g === 'number')).toBe(true);
    expect(after[4]).toBeNull();
    // Fewer calls than sessions (one per shard when its closes land within one batch); a call for Fan4
    // alone (its rejoin came after its shard's batch) found it back and changed nothing.
    proto.viewersGone = real;
    const counted = calls.filter((c) => !(c.length === 1 && c[0] === fans[4].sessionId));
    expect(counted.length).toBeLessThan(4);
    expect(counted.flat().sort()).toEqual(fans.slice(0, 4).map((f) => f.sessionId).sort());
    for (const r of [back, studio]) r.ws.close(1000);
  });

  it('events gathered for a busy shard reach each socket in one frame per run of the same receivers, in order', async () => {
    const { show, studio } = await liveShow(170);
    const fans: Awaited<ReturnType<typeof startOk>>[] = [];
    for (let i = 0; i < 2; i++) fans.push(await startOk(new Client(), show.universalId, 'free', `Fan${i}`));
    const rooms = await Promise.all(fans.map((f) => viewer(show.id, f)));
    expect(await shardsOf(show.id, fans.map((f) => f.sessionId))).toEqual([0, 0]);
    const frames: string[][] = [[], []];
    rooms.forEach((r, i) =>
      r.ws.addEventListener('message', (m) => {
        if (String(m.data).includes('"id":"q-')) frames[i]!.push(m.data as string);
      }),
    );
    const line = (text: string) => ({ tag: 'v', msg: JSON.stringify({ t: 'line', line: { id: `q-${text}`, from: 'system', nick: '', role: 'system', text, ts: 1 } }) });
    const own = (text: string) => ({ tag: `s:${fans[0]!.sessionId}`, msg: line(text).msg });
    // As the room sends when the shard was busy: several events in one call (numbered as a replaced instance of the room: not counted).
    await shardStub(env, show.id, 0).deliver([line('a'), line('b'), own('mine'), line('c'), line('d'), line('e')], { epoch: 1, from: 1 });
    expect((await linesOf(rooms[0]!, 6)).map((l) => l.text)).toEqual(['a', 'b', 'mine', 'c', 'd', 'e']);
    expect((await linesOf(rooms[1]!, 5)).map((l) => l.text)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Fan0: a and b in one frame, its own line alone, c–e in one; Fan1 the same runs without Fan0's line.
    expect(frames[0]!.map((f) => (f.startsWith('[') ? JSON.parse(f).length : 1))).toEqual([2, 1, 3]);
    expect(frames[1]!.map((f) => (f.startsWith('[') ? JSON.parse(f).length : 1))).toEqual([2, 3]);
    for (const r of [...rooms, studio]) r.ws.close(1000);
  });

  it("a socket joining its shard gets exactly the ops after its welcome: those delivered before it came follow the welcome, those its welcome covers are not sent again", async () => {
    // A shard of no room, driven as the room and the worker drive one (numbers as fanout.ts gives them).
    const shard = shardStub(env, 990_001, 0);
    const epoch = Date.now() + 1_000_000;
    const op = (n: number) => ({ tag: 'v', msg: JSON.stringify({ t: 'line', line: { id: `o-${n}`, from: 'system', nick: '', role: 'system', text: `op${n}`, ts: 1 } }) });
    const join = async (sid: string, at: { epoch: number; seq: number }) => {
      const a = { sid, role: 'guest' as const, uid: null, nick: sid, login: null, show: 990_001 };
      const greeting = JSON.stringify({ t: 'welcome', me: { id: sid, nick: sid, role: 'guest', type: 'free', muted: false }, room: { showId: 990_001, mode: 'free', open: { free: true, private: false, exclusive: false, voyeur: false }, viewers: 1 }, history: [], session: null });
      const res = await shard.fetch('https://shard/join', { headers: { Upgrade: 'websocket', 'X-Shard-Join': encodeURIComponent(JSON.stringify({ a, greeting, ...at })) } });
      if (res.status !== 101) return { status: res.status, texts: [] as string[], ws: null };
      const ws = res.webSocket!;
      const texts: string[] = [];
      ws.addEventListener('message', (m) => {
        for (const e of parseRoomEvents(m.data)!) texts.push(e.t === 'line' ? e.line.text : e.t);
      });
      ws.accept();
      return { status: 101, texts, ws };
    };
    const settle = () => new Promise((r) => setTimeout(r, 100));
    await shard.deliver([op(1)], { epoch, from: 1 });
    // The welcome covers op 2, which reaches the shard after the socket: not sent to it again.
    const early = await join('early', { epoch, seq: 2 });
    await shard.deliver([op(2), op(3)], { epoch, from: 2 });
    // The welcome was made at op 1; ops 2 and 3 went out before the socket came: they follow its welcome.
    const late = await join('late', { epoch, seq: 1 });
    await shard.deliver([op(4)], { epoch, from: 4 });
    // A call sent again (the room did not hear its answer): only what is new goes out.
    await shard.deliver([op(3), op(4)], { epoch, from: 3 });
    await settle();
    expect(early.texts).toEqual(['welcome', 'op3', 'op4']);
    expect(late.texts).toEqual(['welcome', 'op2', 'op3', 'op4']);
    // Ops no longer held (more than the shard keeps came since the welcome), or a welcome of a replaced room: asked again.
    await shard.deliver(Array.from({ length: 2_000 }, () => ({ tag: 'nobody', msg: '{}' })), { epoch, from: 5 });
    expect((await join('gone', { epoch, seq: 3 })).status).toBe(409);
    expect((await join('old', { epoch: epoch - 1, seq: 2_004 })).status).toBe(409);
    // A new instance of the room numbers anew: a socket it admits before its first ops arrive skips those its welcome covers.
    const next = await join('next', { epoch: epoch + 1, seq: 3 });
    await shard.deliver([op(1), op(2), op(3), op(4)].map((o, i) => ({ ...o, msg: o.msg.replace(/op\d/, `new${i + 1}`) })), { epoch: epoch + 1, from: 1 });
    await settle();
    expect(next.texts).toEqual(['welcome', 'new4']);
    expect(early.texts.slice(3)).toEqual(['new1', 'new2', 'new3', 'new4']);
    // Ops the room had to drop (a gap in the numbers): every socket here starts again.
    const closed = new Promise<number>((r) => next.ws!.addEventListener('close', (e) => r(e.code)));
    await shard.deliver([op(9)], { epoch: epoch + 1, from: 9 });
    expect(await closed).toBe(1012);
    for (const j of [early, late]) j.ws!.close(1000);
  });

  it('a shard that does not take the calls for a while (overloaded) gets the same ops again: nothing lost, nothing twice', async () => {
    const { show, studio } = await liveShow(172);
    const room = await viewer(show.id, await startOk(new Client(), show.universalId, 'free', 'Fan'));
    // Its next three calls fail (RPC finds the method on the class: patched there, restored below).
    const proto = await runInDurableObject(shardStub(env, show.id, 0), (instance: RoomShard) => Object.getPrototypeOf(instance) as RoomShard);
    const real = proto.deliver;
    let refused = 0;
    proto.deliver = function (this: RoomShard, ...args: Parameters<RoomShard['deliver']>) {
      if (refused < 3) {
        refused++;
        throw new Error('overloaded');
      }
      return real.apply(this, args);
    };
    try {
      // Numbered as the page numbers them: frames sent at once may reach the room swapped (say-order.ts).
      ['one', 'two'].forEach((text, i) => studio.send({ t: 'say', text, n: i + 1 }));
      expect((await linesOf(room, 2)).map((l) => l.text)).toEqual(['one', 'two']);
      expect(refused).toBe(3);
      studio.send({ t: 'say', text: 'three', n: 3 });
      expect((await room.next('line')).line.text).toBe('three');
      await new Promise((r) => setTimeout(r, 300));
      expect(room.events.filter((e) => e.t === 'line')).toEqual([]);
    } finally {
      proto.deliver = real;
    }
    for (const r of [room, studio]) r.ws.close(1000);
  });

  it('viewers joining while lines are sent miss none and get none twice', async () => {
    const { show, studio } = await liveShow(171);
    const senders = [];
    for (let i = 0; i < 4; i++) senders.push(await viewer(show.id, await startOk(new Client(), show.universalId, 'free', `Sender${i}`)));
    const fans = [];
    for (let i = 0; i < 6; i++) fans.push(await startOk(new Client(), show.universalId, 'free', `Fan${i}`));
    // Four senders on their shards, a burst each, while six viewers join at once (their welcomes fall between lines).
    const sending = Promise.all(
      senders.map(async (s, i) => {
        for (let n = 1; n <= CHAT_RATE_BURST; n++) {
          s.send({ t: 'say', text: `${i}:${n}`, n });
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
    const joining = await Promise.all(fans.map((f) => joinRoom(show.id, f.login, f.password)));
    await sending;
    // The studio's view: every line in the room's order.
    const all = await linesOf(studio, senders.length * CHAT_RATE_BURST).then((ls) => ls.map((l) => l.text));
    studio.send({ t: 'say', text: 'end' });
    all.push((await studio.next('line')).line.text);
    const until = async (r: RoomSocket, seen: string[]) => {
      while (seen.at(-1) !== 'end') seen.push((await r.next('line')).line.text);
      return seen;
    };
    for (const r of joining) expect(await until(r, (await r.next('welcome')).history.map((l) => l.text))).toEqual(all);
    for (const r of [...senders, ...joining, studio]) r.ws.close(1000);
  });

  it('viewers joining one after another: the count alone reaches the room at most every 2 s, and its last value arrives', async () => {
    const { show, studio } = await liveShow(155);
    const first = await viewer(show.id, await startOk(new Client(), show.universalId, 'free', 'First'));
    const events: number[] = [];
    first.ws.addEventListener('message', (m) => {
      for (const e of parseRoomEvents(m.data)!) if (e.t === 'room') events.push(e.room.viewers);
    });
    const others = [];
    for (let i = 0; i < 4; i++) {
      others.push(await viewer(show.id, await startOk(new Client(), show.universalId, 'free', `Next${i}`)));
      await new Promise((r) => setTimeout(r, 300));
    }
    const deadline = Date.now() + 5_000;
    while (events.at(-1) !== 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(events.at(-1)).toBe(5);
    // Four joins 300 ms apart were four snapshots to every socket before; now one or two.
    expect(events.length).toBeLessThanOrEqual(2);
    for (const r of [first, ...others, studio]) r.ws.close(1000);
  });
});
