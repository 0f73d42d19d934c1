import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { loadRoom } from '../../src/server/features/chat/room/state';
import { sfuKey, type ViewerState } from '../../src/server/features/video/video-relay';
import { Client } from './helpers';
import { chatMember, liveShow, pinged, type RoomSocket, startOk, viewer } from './chat-helpers';
import { FakeRealtime } from './fake-realtime';
import { OFFER, useFakeSfu } from './sfu-helpers';

// Simulcast with the SFU engine through the show room (issue 28 step 1; shows 181-186): a
// publication whose offer sends f;h;q is pulled at its best layer, a permitted viewer's `layer`
// signal switches its video with tracks/update (the receiving session's mid), the choice is
// stored and survives the room's sleep; refusals change nothing and reach no SFU call.

const fake = new FakeRealtime();
fake.connectWaitMs = 50;
/** Closes of this session wait while it is set: a viewer the room dropped whose pull the SFU still carries. */
let closeGate: { session: string; until: Promise<void> } | null = null;
let closesHeld = 0;
useFakeSfu(fake, async (input, init) => {
  if (closeGate && input.endsWith(`/sessions/${closeGate.session}/tracks/close`)) {
    closesHeld++;
    await closeGate.until;
  }
  return fake.fetch(input, init);
});

/** A Chrome-like simulcast offer: audio mid 0, video mid 2 (so a viewer's video mid, 1, differs). */
const SIMULCAST_OFFER = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0 2', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'c=IN IP4 0.0.0.0', 'a=mid:0', 'a=sendonly', 'a=rtpmap:111 opus/48000/2', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'c=IN IP4 0.0.0.0', 'a=mid:2', 'a=sendonly', 'a=rtpmap:96 VP8/90000', 'a=rid:f send', 'a=rid:h send', 'a=rid:q send', 'a=simulcast:send f;h;q', ''].join('\r\n');
const best = { preferredRid: 'f', priorityOrdering: 'asciibetical', ridNotAvailable: 'asciibetical' };
const layer = (rid: string) => ({ ...best, preferredRid: rid });

/** The performer publishes `offer` through the studio socket; answers the publisher's SFU session. */
async function publish(studio: RoomSocket, offer: string): Promise<string> {
  studio.send({ t: 'signal', to: 'relay', data: { kind: 'offer', sdp: offer } });
  expect((await studio.next('signal')).data).toEqual({ kind: 'answer', sdp: `answer-to:${offer}` });
  const made = fake.callsTo('/tracks/new').at(-1)!;
  return made.path.split('/')[4];
}

/** A permitted viewer wants, gets the SFU's offer, answers; answers its session and its pull's body. */
async function pull(room: RoomSocket, sid: string): Promise<{ session: string; body: unknown }> {
  await room.next('video', (e) => e.state === 'live');
  room.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
  const offer = await room.next('signal');
  const session = (offer.data.kind === 'offer' ? offer.data.sdp : '').replace('offer-for:', '');
  room.send({ t: 'signal', to: 'relay', data: { kind: 'answer', sdp: `answer of ${sid}` } });
  await expect.poll(() => fake.sessions.get(session)?.answers).toEqual([`answer of ${sid}`]);
  return { session, body: fake.callsTo(`/sessions/${session}/tracks/new`)[0].body };
}

/** What the room's storage holds for a viewer (the SFU engine's entry). */
async function stored(showId: number, sid: string): Promise<ViewerState | undefined> {
  return runInDurableObject(roomOf(env, showId), (_i: ShowRoom, state) => state.storage.get<ViewerState>(sfuKey(showId, sid)));
}

/** The tracks/update calls answered so far (a call is recorded when it starts, its status when answered). */
const updates = () => fake.callsTo('/tracks/update').filter((c) => c.status !== undefined);
/** SFU calls since `mark`, but the closes of earlier tests' viewers (their sessions end in the background). */
const callsSince = (mark: number) => fake.calls.slice(mark).filter((c) => !c.path.endsWith('/tracks/close'));
const heldSimulcast = (session: string) => fake.sessions.get(session)?.tracks.get('1')?.simulcast;

/** A live show publishing `offer` from its studio, and a free viewer whose pull is answered. */
async function freeViewerPulling(showId: number, offer: string) {
  const { show, studio } = await liveShow(showId);
  const pub = await publish(studio, offer);
  const f = await startOk(new Client(), show.universalId, 'free');
  const free = await viewer(show.id, f);
  return { show, studio, pub, f, free, ...(await pull(free, f.sessionId)) };
}

describe('simulcast through the show room (SFU engine)', () => {
  it('a simulcast publication is pulled at its best layer; a viewer\'s layer signal switches it with the receiving mid; the choice is stored and survives the room\'s sleep', async () => {
    const { show, studio, pub, f, free, session, body } = await freeViewerPulling(181, SIMULCAST_OFFER);
    expect(body).toEqual({
      tracks: [
        { location: 'remote', sessionId: pub, trackName: `show-${show.id}-audio-0` },
        { location: 'remote', sessionId: pub, trackName: `show-${show.id}-video-2`, simulcast: best },
      ],
    });
    expect(heldSimulcast(session)).toEqual(best);
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'q' } });
    await expect.poll(() => updates().length).toBe(1);
    expect(updates()[0]).toMatchObject({
      method: 'PUT',
      path: `/apps/${fake.appId}/sessions/${session}/tracks/update`,
      status: 200,
      body: { tracks: [{ location: 'remote', sessionId: pub, trackName: `show-${show.id}-video-2`, mid: '1', simulcast: layer('q') }] },
    });
    expect(heldSimulcast(session)).toEqual(layer('q'));
    await expect.poll(() => stored(show.id, f.sessionId).then((v) => v?.rid)).toBe('q');
    // The room is evicted: a new Room state over the same storage (what a wake-up builds).
    const saved = await runInDurableObject(roomOf(env, show.id), async (instance: ShowRoom, state) => {
      instance.room = await loadRoom(state, instance.room.env);
      return instance.room.video.sfuSaved?.viewers.flatMap(([, list]) => list);
    });
    expect(saved).toEqual([[f.sessionId, { sessionId: session, tracks: expect.any(Array), rid: 'q' }]]);
    // The rebuilt engine switches the same session's mid: 'auto' is the best layer again.
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'auto' } });
    await expect.poll(() => updates().length).toBe(2);
    expect(updates()[1]).toMatchObject({ path: `/apps/${fake.appId}/sessions/${session}/tracks/update`, status: 200, body: { tracks: [{ mid: '1', simulcast: best }] } });
    await expect.poll(() => stored(show.id, f.sessionId).then((v) => v?.rid)).toBe('f');
    expect(heldSimulcast(session)).toEqual(best);
    expect(free.events.filter((e) => e.t === 'error')).toEqual([]);
    expect(fake.overlaps).toEqual([]);
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('a non-simulcast publication pulls as before (no simulcast field); a layer asked of it is video.unavailable with no SFU call', async () => {
    const { show, studio, pub, f, free, session, body } = await freeViewerPulling(182, OFFER);
    expect(body).toEqual({
      tracks: [
        { location: 'remote', sessionId: pub, trackName: `show-${show.id}-audio-0` },
        { location: 'remote', sessionId: pub, trackName: `show-${show.id}-video-1` },
      ],
    });
    const before = fake.calls.length;
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'h' } });
    expect((await free.next('error')).code).toBe('video.unavailable');
    expect(callsSince(before)).toEqual([]);
    expect(heldSimulcast(session)).toBeUndefined();
    expect((await stored(show.id, f.sessionId))?.rid).toBeUndefined();
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('update_track_error from the SFU: the viewer is told video.unavailable and nothing changes', async () => {
    const { show, studio, f, free, session } = await freeViewerPulling(183, SIMULCAST_OFFER);
    const mark = updates().length;
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'h' } });
    await expect.poll(() => stored(show.id, f.sessionId).then((v) => v?.rid)).toBe('h');
    // The SFU no longer counts the pull as simulcast: it refuses the switch inside a 200.
    delete fake.sessions.get(session)!.tracks.get('1')!.simulcast;
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'q' } });
    expect((await free.next('error')).code).toBe('video.unavailable');
    expect(updates().length).toBe(mark + 2);
    expect(updates()[mark + 1]).toMatchObject({ status: 200, path: `/apps/${fake.appId}/sessions/${session}/tracks/update`, body: { tracks: [{ mid: '1', simulcast: layer('q') }] } });
    expect((await stored(show.id, f.sessionId))?.rid).toBe('h');
    expect(heldSimulcast(session)).toBeUndefined();
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('a viewer not permitted to watch, or not pulling, is refused without an SFU call; a bad rid is a bad command', async () => {
    const { show, studio } = await liveShow(184);
    await publish(studio, SIMULCAST_OFFER);
    // A private request not accepted yet: the requester waits (no video for it).
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const waiting = await viewer(show.id, p);
    expect((await waiting.next('video')).state).toBe('waiting');
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    await free.next('video', (e) => e.state === 'live');
    const before = fake.calls.length;
    waiting.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'h' } });
    expect((await waiting.next('error')).code).toBe('video.not_permitted');
    // Permitted, but nothing pulled yet: nothing to switch.
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'h' } });
    expect((await free.next('error')).code).toBe('video.not_permitted');
    for (const data of [{ kind: 'layer', rid: 'x' }, { kind: 'layer' }, { kind: 'layer', rid: 'F' }, { kind: 'layer', rid: ['f'] }]) {
      free.send({ t: 'signal', to: 'relay', data });
      expect((await free.next('error')).code).toBe('chat.bad_command');
    }
    await pinged(free);
    expect(callsSince(before)).toEqual([]);
    expect(await stored(show.id, f.sessionId)).toBeUndefined();
    for (const s of [free, waiting, studio]) s.ws.close(1000);
  });

  it('a free viewer cut off by a private, its pull still held at the SFU (the close in flight), is refused a layer without an SFU call', async () => {
    const { show, studio, free, session } = await freeViewerPulling(186, SIMULCAST_OFFER);
    let release: () => void = () => undefined;
    closeGate = { session, until: new Promise<void>((r) => (release = r)) };
    const held = closesHeld;
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await free.next('video', (e) => e.state !== 'live')).state).toBe('private');
    await expect.poll(() => closesHeld).toBe(held + 1);
    const before = fake.calls.length;
    free.send({ t: 'signal', to: 'relay', data: { kind: 'layer', rid: 'q' } });
    expect((await free.next('error')).code).toBe('video.not_permitted');
    expect(callsSince(before)).toEqual([]);
    expect(heldSimulcast(session)).toEqual(best);
    closeGate = null;
    release();
    await expect.poll(() => fake.sessions.get(session)?.tracks.size).toBe(0);
    for (const s of [free, member, studio]) s.ws.close(1000);
  });

  it('peer to peer: a permitted viewer\'s layer signal goes to the performer\'s browser (nothing to call)', async () => {
    const vars = env as unknown as Record<string, string | undefined>;
    vars.VIDEO_RELAY = 'p2p';
    try {
      const { show, studio } = await liveShow(185);
      studio.send({ t: 'video', live: true });
      const f = await startOk(new Client(), show.universalId, 'free');
      const free = await viewer(show.id, f);
      await free.next('video', (e) => e.state === 'live');
      const before = fake.calls.length;
      free.send({ t: 'signal', to: 'performer', data: { kind: 'layer', rid: 'q' } });
      expect(await studio.next('signal')).toEqual({ t: 'signal', from: f.sessionId, to: 'performer', data: { kind: 'layer', rid: 'q' } });
      free.send({ t: 'signal', to: 'performer', data: { kind: 'layer', rid: 'z' } });
      expect((await free.next('error')).code).toBe('chat.bad_command');
      expect(callsSince(before)).toEqual([]);
      for (const s of [free, studio]) s.ws.close(1000);
    } finally {
      vars.VIDEO_RELAY = 'cloudflare';
    }
  });
});
