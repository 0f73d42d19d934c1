import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FetchLike } from '../../src/server/features/video/realtime-api';
import { videoTestHooks } from '../../src/server/features/video/video-host';
import type { RoomSocket } from './chat-helpers';
import type { FakeRealtime } from './fake-realtime';

// The show room's side of the SFU as the performer's and a viewer's browser see it (the room test
// and the cut-off bench): publish through the studio socket, pull and answer through a viewer's.

/**
 * Rooms built while this file runs use the SFU engine over the fake (vitest-pool-workers runs the
 * worker's Durable Objects in the test's isolate: the room's engine takes `videoTestHooks.fetch`
 * and reads this same `env`); restored after the file. A one-second API timeout: a session held
 * for an SFU offer nobody answers frees within it.
 */
export function useFakeSfu(fake: FakeRealtime, fetchFn: FetchLike = fake.fetch): void {
  const sfu = { VIDEO_RELAY: 'cloudflare', REALTIME_API_BASE: fake.base, REALTIME_APP_ID: fake.appId, REALTIME_APP_SECRET: fake.secret, REALTIME_API_TIMEOUT_MS: '1000' };
  const vars = env as unknown as Record<string, string | undefined>;
  const saved = Object.fromEntries(Object.keys(sfu).map((k) => [k, vars[k]]));
  beforeAll(() => {
    Object.assign(vars, sfu);
    videoTestHooks.fetch = fetchFn;
  });
  afterAll(() => {
    Object.assign(vars, saved);
    delete videoTestHooks.fetch;
  });
}

// A Chrome-like sendonly offer: audio mid 0, video mid 1.
export const OFFER = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0 1', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'c=IN IP4 0.0.0.0', 'a=mid:0', 'a=sendonly', 'a=rtpmap:111 opus/48000/2', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'c=IN IP4 0.0.0.0', 'a=mid:1', 'a=sendonly', 'a=rtpmap:96 VP8/90000', ''].join('\r\n');

/** What a close of a whole viewer session sends. */
export const closedAll = { tracks: [{ mid: '0' }, { mid: '1' }], force: true };

export function sfuHelpers(fake: FakeRealtime) {
  /** The performer publishes through the room; answers the publisher's SFU session id. */
  async function publish(showId: number, studio: RoomSocket): Promise<string> {
    const before = fake.callsTo('/sessions/new').length;
    studio.send({ t: 'signal', to: 'relay', data: { kind: 'offer', sdp: OFFER } });
    expect(await studio.next('signal')).toEqual({ t: 'signal', from: 'relay', to: 'performer', data: { kind: 'answer', sdp: `answer-to:${OFFER}` } });
    const made = fake.callsTo('/sessions/new').slice(before);
    expect(made.length).toBe(1);
    // The first tracks/new after it (another call, e.g. a close left over from an earlier test, may come between).
    const after = fake.calls.slice(fake.calls.indexOf(made[0]) + 1);
    const sessionId = after.map((c) => /sessions\/([^/]+)\/tracks\/new$/.exec(c.path)?.[1] ?? '').find(Boolean) ?? '';
    expect(sessionId).not.toBe('');
    expect(fake.callsTo(`/sessions/${sessionId}/tracks/new`)[0].body).toEqual({
      sessionDescription: { type: 'offer', sdp: OFFER },
      tracks: [
        { location: 'local', mid: '0', trackName: `show-${showId}-audio-0` },
        { location: 'local', mid: '1', trackName: `show-${showId}-video-1` },
      ],
    });
    return sessionId;
  }

  /** A permitted viewer asks, gets the SFU's offer from 'relay', answers; answers its SFU session id. */
  async function pull(showId: number, room: RoomSocket, sid: string): Promise<string> {
    room.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    const offer = await room.next('signal');
    expect(offer).toMatchObject({ from: 'relay', to: sid, data: { kind: 'offer' } });
    const sessionId = (offer.data.kind === 'offer' ? offer.data.sdp : '').replace('offer-for:', '');
    expect([...(fake.sessions.get(sessionId)?.tracks.values() ?? [])].map((t) => `${t.location}:${t.mid}:${t.trackName}`)).toEqual([`remote:0:show-${showId}-audio-0`, `remote:1:show-${showId}-video-1`]);
    room.send({ t: 'signal', to: 'relay', data: { kind: 'answer', sdp: `answer of ${sid}` } });
    await expect.poll(() => fake.sessions.get(sessionId)?.answers).toEqual([`answer of ${sid}`]);
    return sessionId;
  }

  /** Completed closes on that session (what stops the SFU sending): their bodies. */
  const closes = (sessionId: string) =>
    fake
      .callsTo(`/sessions/${sessionId}/tracks/close`)
      .filter((c) => c.status === 200)
      .map((c) => c.body);
  return { publish, pull, closes };
}
