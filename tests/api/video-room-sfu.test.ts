import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { minutePrice } from '../../src/shared/chat';
import type { FetchLike } from '../../src/server/features/video/realtime-api';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { loadRoom } from '../../src/server/features/chat/room/state';
import { Client, expectJson } from './helpers';
import { chatMember, drainCoins, liveShow, type RoomSocket, startOk, viewer } from './chat-helpers';
import { FakeRealtime } from './fake-realtime';
import { closedAll, sfuHelpers, useFakeSfu } from './sfu-helpers';

// The show room with VIDEO_RELAY=cloudflare (shows 238-240, 251, 253, 255, 256): the performer's offer publishes on
// the SFU, permitted viewers pull, and a viewer who loses the video (paid session ended, a
// private started) has its tracks closed on the SFU, not just forgotten (issue 12 point 2).
//
// The rooms of these shows reach the fake through useFakeSfu (sfu-helpers.ts): each room builds
// its engine once, so other files use other shows.

const fake = new FakeRealtime();
fake.connectWaitMs = 50;

/** Pulls (remote tracks/new) wait for this while it is set: a pull in flight, deterministically. */
let pullGate: Promise<void> | null = null;
let pullsHeld = 0;
const hooked: FetchLike = async (input, init) => {
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { tracks?: { location?: string }[] }) : null;
  if (pullGate && new URL(input).pathname.endsWith('/tracks/new') && body?.tracks?.[0]?.location === 'remote') {
    pullsHeld++;
    await pullGate;
  }
  return fake.fetch(input, init);
};

useFakeSfu(fake, hooked);

const { publish, pull, closes } = sfuHelpers(fake);

describe('show room video with the Cloudflare SFU engine', () => {
  it('the offer publishes, a viewer pulls and answers; a private closes the free viewer\'s tracks, the member\'s end closes the member\'s', async () => {
    const { show, studio } = await liveShow(238);
    // With the SFU, going live is an offer, not the p2p switch.
    studio.send({ t: 'video', live: true });
    expect((await studio.next('error')).code).toBe('video.publish_with_offer');
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('camera_off');
    // Nothing published yet: a want is refused without any call.
    const callsBefore = fake.calls.length;
    free.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    expect((await free.next('error')).code).toBe('video.not_permitted');
    expect(fake.calls.length).toBe(callsBefore);
    const pub = await publish(show.id, studio);
    expect((await free.next('video')).state).toBe('live');
    const freeSession = await pull(show.id, free, f.sessionId);
    expect(fake.sessions.get(freeSession)?.tracks.get('1')).toEqual({ mid: '1', trackName: `show-${show.id}-video-1`, location: 'remote', sessionId: pub });
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await free.next('video', (e) => e.state !== 'live')).state).toBe('private');
    await expect.poll(() => closes(freeSession)).toEqual([closedAll]);
    expect(fake.sessions.get(freeSession)?.tracks.size).toBe(0);
    // Cut off, the free viewer cannot pull again.
    free.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    expect((await free.next('error')).code).toBe('video.not_permitted');
    const memberSession = await pull(show.id, member, p.sessionId);
    await expectJson(await m.client.post(`/api/chatsession/end/${p.sessionId}`), 200);
    await expect.poll(() => closes(memberSession)).toEqual([closedAll]);
    expect(fake.sessions.get(memberSession)?.tracks.size).toBe(0);
    // The publisher's tracks stay; the free viewer has the video back and pulls anew.
    expect(fake.sessions.get(pub)?.tracks.size).toBe(2);
    expect((await free.next('video')).state).toBe('live');
    // (A new SFU session: the old one's tracks were closed and the engine forgot it.)
    expect(await pull(show.id, free, f.sessionId)).not.toBe(freeSession);
    expect(fake.overlaps).toEqual([]);
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('a voyeur whose coins run out has its tracks closed; going offline closes every pull and the publication', async () => {
    const { show, performer, studio } = await liveShow(239);
    const pub = await publish(show.id, studio);
    // Coins for many minutes, drained once both pulls stand: with coins for one 1-second minute
    // a busy machine ran out before the voyeur had pulled (the test raced the meter).
    const poor = await chatMember(minutePrice('voyeur', show.price, show.factor) * 100);
    const v = await startOk(poor.client, show.universalId, 'voyeur');
    const voy = await viewer(show.id, v);
    expect((await voy.next('video')).state).toBe('live');
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('live');
    const freeSession = await pull(show.id, free, f.sessionId);
    const voySession = await pull(show.id, voy, v.sessionId);
    // A minute charged between reading and draining makes the drain an overdraft (refused): read again.
    await expect.poll(() => drainCoins(poor.id)).toBe(true);
    await studio.next('ended', (e) => e.sessionId === v.sessionId && e.reason === 'no_coins');
    await expect.poll(() => closes(voySession)).toEqual([closedAll]);
    expect(closes(freeSession)).toEqual([]);
    await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
    expect((await free.next('video')).state).toBe('offline');
    await expect.poll(() => closes(freeSession)).toEqual([closedAll]);
    await expect.poll(() => closes(pub)).toEqual([closedAll]);
    expect(fake.sessions.get(pub)?.tracks.size).toBe(0);
    studio.ws.close(1000);
  });

  it('a private cuts any number of free viewers off with one SFU call (the publication closed); the performer publishes again and only the member pulls it', async () => {
    const { show, studio } = await liveShow(253);
    const first = await publish(show.id, studio);
    const free: { room: RoomSocket; sid: string; session: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const f = await startOk(new Client(), show.universalId, 'free');
      const room = await viewer(show.id, f);
      expect((await room.next('video')).state).toBe('live');
      free.push({ room, sid: f.sessionId, session: await pull(show.id, room, f.sessionId) });
    }
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    const mark = fake.calls.length;
    studio.send({ t: 'accept', sessionId: p.sessionId });
    for (const f of free) expect((await f.room.next('video', (e) => e.state !== 'live')).state).toBe('private');
    // The cut-off: the publication's tracks closed, one call; every pull of them gets nothing now.
    await studio.next('error', (e) => e.code === 'video.republish');
    const cut = fake.calls.slice(mark).filter((c) => c.method === 'PUT');
    expect(cut.map((c) => c.path)[0]).toBe(`/apps/${fake.appId}/sessions/${first}/tracks/close`);
    expect(closes(first)).toEqual([closedAll]);
    expect(fake.sessions.get(first)?.tracks.size).toBe(0);
    // The free viewers' sessions are cleaned up afterwards (they carry nothing already).
    await expect.poll(() => free.map((f) => closes(f.session).length)).toEqual([1, 1, 1, 1]);
    // The performer publishes again (a new epoch); the member pulls it, the free viewers may not.
    const second = await publish(show.id, studio);
    expect(second).not.toBe(first);
    await member.next('video', (e) => e.state === 'live');
    const memberSession = await pull(show.id, member, p.sessionId);
    expect(fake.sessions.get(memberSession)?.tracks.get('1')).toMatchObject({ location: 'remote', sessionId: second });
    free[0].room.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    expect((await free[0].room.next('error')).code).toBe('video.not_permitted');
    for (const s of [...free.map((f) => f.room), member, studio]) s.ws.close(1000);
  });

  it('a room that slept (its memory gone, its storage kept) still serves: a new viewer pulls, a private closes exactly the free viewers\' tracks, its end gives them the video back', async () => {
    const { show, studio } = await liveShow(251);
    const pub = await publish(show.id, studio);
    const f1 = await startOk(new Client(), show.universalId, 'free');
    const free1 = await viewer(show.id, f1);
    expect((await free1.next('video')).state).toBe('live');
    const first = await pull(show.id, free1, f1.sessionId);
    // The room is evicted: a new Room state over the same storage (what a wake-up builds).
    await runInDurableObject(roomOf(env, show.id), async (instance: ShowRoom, state) => {
      instance.room = await loadRoom(state, instance.room.env);
    });
    const f2 = await startOk(new Client(), show.universalId, 'free');
    const free2 = await viewer(show.id, f2);
    expect((await free2.next('video')).state).toBe('live');
    const second = await pull(show.id, free2, f2.sessionId);
    expect(fake.sessions.get(second)?.tracks.get('1')).toMatchObject({ location: 'remote', sessionId: pub });
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await free1.next('video', (e) => e.state === 'private')).state).toBe('private');
    expect((await free2.next('video', (e) => e.state === 'private')).state).toBe('private');
    await expect.poll(() => [closes(first), closes(second)]).toEqual([[closedAll], [closedAll]]);
    expect(fake.sessions.get(pub)?.tracks.size).toBe(2);
    const memberSession = await pull(show.id, member, p.sessionId);
    await expectJson(await m.client.post(`/api/chatsession/end/${p.sessionId}`), 200);
    await expect.poll(() => closes(memberSession)).toEqual([closedAll]);
    expect((await free1.next('video', (e) => e.state === 'live')).state).toBe('live');
    expect((await free2.next('video', (e) => e.state === 'live')).state).toBe('live');
    expect(await pull(show.id, free1, f1.sessionId)).not.toBe(first);
    expect(await pull(show.id, free2, f2.sessionId)).not.toBe(second);
    expect(fake.overlaps).toEqual([]);
    for (const s of [free1, free2, member, studio]) s.ws.close(1000);
  });

  it('a pull still in flight when the viewer loses the video is closed when it lands; a failed close is retried until it holds', async () => {
    const { show, studio } = await liveShow(240);
    await publish(show.id, studio);
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('live');
    // The pull is held at the SFU while a private starts.
    let release: () => void = () => undefined;
    pullGate = new Promise<void>((r) => (release = r));
    const held = pullsHeld;
    const mark = fake.calls.length;
    free.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    await expect.poll(() => pullsHeld).toBe(held + 1);
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await free.next('video', (e) => e.state !== 'live')).state).toBe('private');
    pullGate = null;
    release();
    // The late pull is forgotten at once and the viewer gets no offer (it is not permitted now);
    // its session's chain waits for an answer that never comes (the API timeout), then its
    // tracks are closed (a session whose setup never finished carries no media: any answer ends it).
    const pulledBy = () => fake.calls.slice(mark).filter((c) => c.path.endsWith('/tracks/new') && (c.body as { tracks: { location: string }[] }).tracks[0].location === 'remote').map((c) => c.path.split('/')[4]);
    await expect.poll(() => pulledBy().length).toBe(1);
    const freeSession = pulledBy()[0];
    await expect.poll(() => fake.callsTo(`/sessions/${freeSession}/tracks/close`).filter((c) => c.status).length, { timeout: 4000 }).toBe(1);
    expect(fake.overlaps).toEqual([]);
    expect(free.events.filter((e) => e.t === 'signal')).toEqual([]);
    // The member pulls; the SFU then fails the close of its tracks once: the room retries.
    const memberSession = await pull(show.id, member, p.sessionId);
    fake.forceStatus = 500;
    await expectJson(await m.client.post(`/api/chatsession/end/${p.sessionId}`), 200);
    await expect.poll(() => fake.callsTo(`/sessions/${memberSession}/tracks/close`).filter((c) => c.status === 500).length).toBeGreaterThan(0);
    fake.forceStatus = null;
    await expect.poll(() => closes(memberSession)).toEqual([closedAll]);
    expect(fake.sessions.get(memberSession)?.tracks.size).toBe(0);
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('a viewer whose network dropped wants again and pulls at once on a new session; the dead session\'s tracks are closed in the background (410 counts as closed)', async () => {
    const { show, studio } = await liveShow(255);
    await publish(show.id, studio);
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('live');
    const first = await pull(show.id, free, f.sessionId);
    // The viewer's network dropped: its session is not connected (any operation on it: 425).
    fake.disconnect(first);
    const second = await pull(show.id, free, f.sessionId);
    expect(second).not.toBe(first);
    // The old session's close is retried in the background; once the reuse window has passed (410) it counts as closed.
    await expect.poll(() => fake.callsTo(`/sessions/${first}/tracks/close`).some((c) => c.status === 425)).toBe(true);
    fake.kill(first);
    await expect.poll(() => fake.callsTo(`/sessions/${first}/tracks/close`).map((c) => c.status).at(-1), { timeout: 3000 }).toBe(410);
    const attempts = fake.callsTo(`/sessions/${first}/tracks/close`).length;
    await new Promise((r) => setTimeout(r, 700));
    expect(fake.callsTo(`/sessions/${first}/tracks/close`).length).toBe(attempts);
    // Not locked out: another want after that is served too (on yet another session).
    expect(await pull(show.id, free, f.sessionId)).not.toBe(second);
    expect(free.events.filter((e) => e.t === 'error')).toEqual([]);
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('a pull of a collected publication answers the viewer video.unavailable and asks the performer to publish again', async () => {
    const { show, studio } = await liveShow(256);
    const pub = await publish(show.id, studio);
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('live');
    // The performer's media stopped for longer than the track timeout: the SFU collected its tracks.
    fake.stopMedia(pub);
    free.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    expect((await free.next('error')).code).toBe('video.unavailable');
    expect((await studio.next('error')).code).toBe('video.republish');
    // The performer publishes again; the viewer pulls.
    await publish(show.id, studio);
    await pull(show.id, free, f.sessionId);
    for (const s of [free, studio]) s.ws.close(1000);
  });
});
