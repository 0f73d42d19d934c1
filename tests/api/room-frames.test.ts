import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ROOM_FLOOD_CLOSE_CODE, ROOM_FRAME_LIMITS, type RoomEvent } from '../../src/shared/chat';
import { MARKS_PER_BASE_MAX } from '../../src/server/lib/body';
import { CHROMIUM_OFFER } from '../unit/chromium-sdp';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import type { RoomShard } from '../../src/server/features/chat/room/shard';
import { shardStub } from '../../src/server/features/chat/room/fanout';
import { Client } from './helpers';
import { joinRoom, liveShow, pinged, type RoomSocket, startOk, viewer } from './chat-helpers';

// The show room's frames under abuse (issue 24, shows 143-146): every frame kind is limited per
// sender, a flooder is told once and then closed, and nobody else notices; signals have a size
// cap that real offers fit in; chat lines lose bidi and zero-width characters and stacked marks.

const from = (room: RoomSocket, t: RoomEvent['t'], sid: string) => room.events.filter((e) => e.t === t && 'from' in e && e.from === sid).length;
const rateLimited = (room: RoomSocket) => room.events.filter((e) => e.t === 'error' && e.code === 'chat.rate_limited').length;

/** At most the burst, plus what the bucket refilled while the test ran (a slow machine refills more, never less). */
function allowed(kind: keyof typeof ROOM_FRAME_LIMITS, since: number): number {
  const { burst, perSecond } = ROOM_FRAME_LIMITS[kind];
  return burst + Math.ceil(((Date.now() - since) / 1000) * perSecond);
}

describe('show room: frame limits', () => {
  it("one viewer's flood (signals, then 5,000 typing notices) is refused: told once, then closed; the performer gets a few, another viewer's line arrives", async () => {
    const { show, studio } = await liveShow(143);
    studio.send({ t: 'video', live: true });
    const f = await startOk(new Client(), show.universalId, 'free', 'Flood');
    const o = await startOk(new Client(), show.universalId, 'free', 'Calm');
    const flooder = await viewer(show.id, f);
    const other = await viewer(show.id, o);
    await flooder.next('video', (e) => e.state === 'live');
    let closedWith: number | null = null;
    void flooder.closed.then((code) => (closedWith = code));
    const started = Date.now();
    // Each `want` would make the performer's browser build a peer connection.
    for (let i = 0; i < 40; i++) flooder.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    for (let i = 0; i < 5_000; i++) flooder.send({ t: 'typing' });
    other.send({ t: 'say', text: 'still here' });
    // The other viewer's line reaches the performer and the room.
    expect((await studio.next('line', (e) => e.line.text === 'still here')).line.from).toBe(o.sessionId);
    await other.next('line', (e) => e.line.text === 'still here');
    // The flood that went on closed the flooder's socket; it was told once.
    await expect.poll(() => closedWith, { timeout: 10_000, interval: 20 }).toBe(ROOM_FLOOD_CLOSE_CODE);
    expect(rateLimited(flooder)).toBe(1);
    // The performer got the flooder's burst, not the flood.
    await pinged(studio);
    const wants = from(studio, 'signal', f.sessionId);
    const typing = from(studio, 'typing', f.sessionId);
    expect(wants).toBeGreaterThanOrEqual(1);
    expect(wants).toBeLessThanOrEqual(allowed('signal', started));
    expect(typing).toBeGreaterThanOrEqual(1);
    expect(typing).toBeLessThanOrEqual(allowed('typing', started));
    // The other viewer and the performer were never limited.
    expect(rateLimited(other) + rateLimited(studio)).toBe(0);
    other.send({ t: 'typing' });
    expect(await studio.next('typing', (e) => e.from === o.sessionId)).toEqual({ t: 'typing', from: o.sessionId, nick: 'Calm' });
    for (const s of [other, studio]) s.ws.close(1000);
  });

  it("typing notices: one per couple of seconds gets through, the surplus is dropped without an error and the socket stays", async () => {
    const { show, studio } = await liveShow(144);
    const a = await startOk(new Client(), show.universalId, 'free', 'Typist');
    const guest = await viewer(show.id, a);
    const started = Date.now();
    for (let i = 0; i < 20; i++) guest.send({ t: 'typing' });
    guest.send({ t: 'say', text: 'done typing' });
    await studio.next('line', (e) => e.line.text === 'done typing');
    await pinged(studio);
    await pinged(guest);
    const typing = from(studio, 'typing', a.sessionId);
    expect(typing).toBeGreaterThanOrEqual(1);
    expect(typing).toBeLessThanOrEqual(allowed('typing', started));
    expect(guest.events.filter((e) => e.t === 'error' && e.code !== 'pong')).toEqual([]);
    expect(guest.ws.readyState).toBe(1);
    guest.ws.close(1000);
    studio.ws.close(1000);
  });

  it("signals: the performer answers every viewer (a bucket per viewer), a viewer's burst is capped, a viewer never offers; a real offer fits the size cap, a 20 KB one does not", async () => {
    const { show, studio } = await liveShow(145);
    studio.send({ t: 'video', live: true });
    const rooms: { id: string; room: RoomSocket }[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await startOk(new Client(), show.universalId, 'free');
      const room = await viewer(show.id, a);
      await room.next('video', (e) => e.state === 'live');
      rooms.push({ id: a.sessionId, room });
    }
    // The performer offers each viewer more than one viewer's burst in all: every offer arrives.
    const { burst } = ROOM_FRAME_LIMITS.signal;
    for (const { id } of rooms) for (let i = 0; i < burst; i++) studio.send({ t: 'signal', to: id, data: { kind: 'offer', sdp: i === 0 ? CHROMIUM_OFFER : `v=0 offer ${i}` } });
    // In any order: the local runtime has delivered a socket's messages out of order under load.
    const sent = Array.from({ length: burst }, (_, i) => (i === 0 ? CHROMIUM_OFFER : `v=0 offer ${i}`)).sort();
    for (const { id, room } of rooms) {
      const got: string[] = [];
      for (let i = 0; i < burst; i++) {
        const e = await room.next('signal');
        expect(e).toMatchObject({ from: 'performer', to: id, data: { kind: 'offer' } });
        got.push(e.data.kind === 'offer' ? e.data.sdp : '');
      }
      expect(got.sort()).toEqual(sent);
    }
    await pinged(studio);
    expect(rateLimited(studio)).toBe(0);
    // A viewer may not offer (only the performer's browser or the relay does).
    const [a, b] = rooms;
    a.room.send({ t: 'signal', to: 'performer', data: { kind: 'offer', sdp: CHROMIUM_OFFER } });
    expect((await a.room.next('error')).code).toBe('chat.forbidden');
    // One viewer's burst of wants: the bucket's worth reaches the performer, the rest is refused (told once).
    const started = Date.now();
    for (let i = 0; i < 30; i++) b.room.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    await expect.poll(() => rateLimited(b.room), { timeout: 10_000, interval: 20 }).toBe(1);
    await pinged(b.room);
    await pinged(studio);
    expect(rateLimited(b.room)).toBe(1);
    const wants = from(studio, 'signal', b.id);
    expect(wants).toBeGreaterThanOrEqual(1);
    expect(wants).toBeLessThanOrEqual(allowed('signal', started));
    // Size: a 20 KB offer is a malformed frame; the room never forwards it.
    studio.send({ t: 'signal', to: a.id, data: { kind: 'offer', sdp: `v=0\r\n${'a=x-pad:x\r\n'.repeat(2_000)}` } });
    expect((await studio.next('error')).code).toBe('chat.bad_command');
    await pinged(a.room);
    expect(a.room.events.filter((e) => e.t === 'signal')).toEqual([]);
    for (const { room } of rooms) room.ws.close(1000);
    studio.ws.close(1000);
  });
});

describe('show room: line text', () => {
  it('bidi overrides and isolates, zero-width characters and 256 stacked marks do not reach anyone', async () => {
    const { show, studio } = await liveShow(146);
    const a = await startOk(new Client(), show.universalId, 'free', 'Tricky');
    const guest = await viewer(show.id, a);
    const b = await startOk(new Client(), show.universalId, 'free');
    const other = await viewer(show.id, b);
    guest.send({ t: 'say', text: `\u2067free\u2069 gift\u202Etxt.exe fr\u200Bee\u200C\uFEFF z${'\u0301'.repeat(256)}!` });
    const clean = `free gifttxt.exe free z${'\u0301'.repeat(MARKS_PER_BASE_MAX)}!`;
    expect((await studio.next('line')).line.text).toBe(clean);
    expect((await other.next('line')).line.text).toBe(clean);
    // The history a late joiner gets holds the cleaned line.
    const c = await startOk(new Client(), show.universalId, 'free');
    const late = await joinRoom(show.id, c.login, c.password);
    expect((await late.next('welcome')).history.map((l) => l.text)).toContain(clean);
    // Emoji built with the joiner stay whole; a line of nothing but invisible characters is empty.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    guest.send({ t: 'say', text: `hi ${family}` });
    expect((await studio.next('line')).line.text).toBe(`hi ${family}`);
    guest.send({ t: 'say', text: '\u202E\u200B\u2066\u200D' });
    expect((await guest.next('error')).code).toBe('chat.empty');
    for (const s of [guest, other, late, studio]) s.ws.close(1000);
  });

  it('pings are answered by the runtime without waking the room or its shard: no frame handler runs for them, and none is limited', async () => {
    const { show, studio } = await liveShow(254);
    const g = await startOk(new Client(), show.universalId, 'free', 'Pinger');
    const guest = await viewer(show.id, g);
    const shard = await runInDurableObject(roomOf(env, show.id), (instance: ShowRoom) => instance.room.sessions.get(g.sessionId)!.shard ?? 0);
    let frames = 0;
    await runInDurableObject(shardStub(env, show.id, shard), (instance: RoomShard) => {
      const handle = instance.webSocketMessage.bind(instance);
      instance.webSocketMessage = (ws, message) => {
        frames++;
        return handle(ws, message);
      };
    });
    for (let i = 0; i < 30; i++) guest.send('ping');
    for (let i = 0; i < 30; i++) await guest.next('error', (e) => e.code === 'pong');
    const answeredAt = await runInDurableObject(shardStub(env, show.id, shard), (_instance: RoomShard, state) =>
      state.getWebSockets(`s:${g.sessionId}`).map((ws) => state.getWebSocketAutoResponseTimestamp(ws)),
    );
    expect(answeredAt).toHaveLength(1);
    expect(answeredAt[0]).toBeInstanceOf(Date);
    expect(frames).toBe(0);
    expect(rateLimited(guest)).toBe(0);
    // Real frames do reach the handler (so the count above could have seen the pings): the typing
    // notice and pinged()'s own frame.
    guest.send({ t: 'typing' });
    await pinged(guest);
    expect(frames).toBe(2);
    for (const s of [guest, studio]) s.ws.close(1000);
  });
});
