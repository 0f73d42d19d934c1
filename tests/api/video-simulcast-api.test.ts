import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/server/env';
import { cloudflareSfu } from '../../src/server/features/video/video-engines';
import { RealtimeApi, type FetchLike } from '../../src/server/features/video/realtime-api';
import { offerRids, simulcastPull } from '../../src/server/features/video/simulcast';
import { VideoRelayError, type SfuEntry } from '../../src/server/features/video/video-relay';
import { FakeRealtime } from './fake-realtime';

// Simulcast in the SFU engine and its HTTP layer against the fake (issue 28 step 1): the RIDs an
// offer sends, pulls that name a layer, RealtimeApi.updateTracks and its errors.

const sdp = (video: string[]) => ['v=0', 's=-', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'a=sendonly', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:2', 'a=sendonly', ...video, ''].join('\r\n');
const FHQ = sdp(['a=rid:f send', 'a=rid:h send', 'a=rid:q send', 'a=simulcast:send f;h;q']);
const tracks = [
  { mid: '0', kind: 'audio' as const },
  { mid: '2', kind: 'video' as const },
];

function setup(fetchFn?: (fake: FakeRealtime) => FetchLike) {
  const fake = new FakeRealtime();
  const entries: SfuEntry[] = [];
  const env = { VIDEO_RELAY: 'cloudflare', REALTIME_API_BASE: fake.base, REALTIME_APP_ID: fake.appId, REALTIME_APP_SECRET: fake.secret } as Bindings;
  const relay = cloudflareSfu(env, fetchFn?.(fake) ?? fake.fetch, { persist: (e) => entries.push(...e) });
  return { fake, relay, entries };
}

async function viewing(relay: ReturnType<typeof cloudflareSfu>, offer: string) {
  const pub = await relay.publish(7, { type: 'offer', sdp: offer }, tracks);
  const pull = await relay.pull(7, 'v');
  if (pull.relay !== 'cloudflare') throw new Error('expected the SFU');
  await relay.renegotiate(pull.sessionId, { type: 'answer', sdp: 'answer' });
  return { pub, pull };
}

async function failure(p: Promise<unknown>): Promise<VideoRelayError> {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(VideoRelayError);
  return e as VideoRelayError;
}

describe('simulcast: offer RIDs, pulls and tracks/update', () => {
  it('offerRids: the RIDs a sending video section both lists in a=simulcast and declares a=rid send', () => {
    expect([...offerRids(FHQ)]).toEqual([['2', ['f', 'h', 'q']]]);
    // Paused (~) and alternative (,) entries count; a RID only listed, or declared recv, does not.
    expect(offerRids(sdp(['a=rid:f send', 'a=rid:h send', 'a=rid:q recv', 'a=simulcast:send f,h;~q recv q'])).get('2')).toEqual(['f', 'h']);
    expect(offerRids(sdp(['a=rid:f send', 'a=rid:h send'])).size).toBe(0);
    expect(offerRids(sdp([])).size).toBe(0);
    expect(offerRids(FHQ.replace('m=video', 'm=audio')).size).toBe(0);
  });

  it('a simulcast publication keeps its RIDs; its video is pulled at f with the asciibetical fallback, its audio plainly', async () => {
    const { fake, relay } = setup();
    const { pub, pull } = await viewing(relay, FHQ);
    expect(pub.tracks).toEqual([
      { mid: '0', trackName: 'show-7-audio-0', kind: 'audio' },
      { mid: '2', trackName: 'show-7-video-2', kind: 'video' },
    ]);
    expect(relay.publication(7)?.tracks[1]).toEqual({ mid: '2', trackName: 'show-7-video-2', kind: 'video', rids: ['f', 'h', 'q'] });
    expect(fake.callsTo(`/sessions/${pull.sessionId}/tracks/new`)[0].body).toEqual({
      tracks: [
        { location: 'remote', sessionId: pub.sessionId, trackName: 'show-7-audio-0' },
        { location: 'remote', sessionId: pub.sessionId, trackName: 'show-7-video-2', simulcast: { preferredRid: 'f', priorityOrdering: 'asciibetical', ridNotAvailable: 'asciibetical' } },
      ],
    });
  });

  it('setLayer updates the viewer\'s video on its own session (its mid) and stores the rid; the publisher\'s session is never touched', async () => {
    const { fake, relay, entries } = setup();
    const { pub, pull } = await viewing(relay, FHQ);
    entries.length = 0;
    await relay.setLayer(7, 'v', 'h');
    expect(fake.callsTo('/tracks/update').map((c) => [c.path, c.body, c.status])).toEqual([
      [`/apps/app-1/sessions/${pull.sessionId}/tracks/update`, { tracks: [{ location: 'remote', sessionId: pub.sessionId, trackName: 'show-7-video-2', mid: '1', simulcast: simulcastPull('h') }] }, 200],
    ]);
    expect(fake.sessions.get(pull.sessionId)?.tracks.get('1')?.simulcast?.preferredRid).toBe('h');
    expect(relay.viewer(7, 'v')?.rid).toBe('h');
    expect(entries).toEqual([['sfu:v:7:v', relay.viewer(7, 'v')]]);
  });

  it('a layer the publication does not send, a publication without simulcast or a viewer without a pull: a clear error, no call', async () => {
    const fh = setup();
    await viewing(fh.relay, sdp(['a=rid:f send', 'a=rid:h send', 'a=simulcast:send f;h']));
    expect((await failure(fh.relay.setLayer(7, 'v', 'q'))).code).toBe('not_simulcast');
    expect((await failure(fh.relay.setLayer(7, 'other', 'h'))).code).toBe('not_published');
    const plain = setup();
    await viewing(plain.relay, sdp([]));
    expect((await failure(plain.relay.setLayer(7, 'v', 'f'))).code).toBe('not_simulcast');
    expect(plain.fake.callsTo('/tracks/new')[1].body).toEqual({ tracks: [expect.not.objectContaining({ simulcast: expect.anything() }), expect.not.objectContaining({ simulcast: expect.anything() })] });
    expect([...fh.fake.callsTo('/tracks/update'), ...plain.fake.callsTo('/tracks/update')]).toEqual([]);
    expect(fh.relay.viewer(7, 'v')?.rid).toBeUndefined();
  });

  it('updateTracks: update_track_error inside a 200 is a typed track error, a top-level errorCode a session error, a non-2xx an http error; calls on one session never overlap', async () => {
    let topLevel = false;
    const { fake, relay } = setup((f) => async (url, init) => (topLevel && url.endsWith('/tracks/update') ? Response.json({ errorCode: 'invalid_params', errorDescription: 'bad' }) : f.fetch(url, init)));
    const { pub, pull } = await viewing(relay, FHQ);
    const api = new RealtimeApi({ base: fake.base, appId: fake.appId, appSecret: fake.secret, timeoutMs: 2000 }, fake.fetch);
    const update = (mid: string, rid: string) => ({ location: 'remote' as const, sessionId: pub.sessionId, trackName: 'show-7-video-2', mid, simulcast: simulcastPull(rid) });
    // The audio track (mid 0) was not pulled with simulcast; a RID the publisher does not send.
    for (const [mid, rid] of [['0', 'f'], ['1', 'x']]) {
      const e = await failure(api.updateTracks(pull.sessionId, [update(mid, rid)]));
      expect([e.code, e.detail.trackErrors?.[0]?.errorCode, e.detail.trackErrors?.[0]?.mid]).toEqual(['track', 'update_track_error', mid]);
    }
    const both = await Promise.all([api.updateTracks(pull.sessionId, [update('1', 'q')]), api.updateTracks(pull.sessionId, [update('1', 'h')])]);
    expect(both.map((r) => r.tracks)).toEqual([[{ mid: '1', sessionId: pub.sessionId, trackName: 'show-7-video-2' }], [{ mid: '1', sessionId: pub.sessionId, trackName: 'show-7-video-2' }]]);
    expect(fake.overlaps).toEqual([]);
    expect(fake.sessions.get(pull.sessionId)?.tracks.get('1')?.simulcast?.preferredRid).toBe('h');
    const gone = await failure(api.updateTracks('nope', [update('1', 'q')]));
    expect([gone.code, gone.detail.status, gone.detail.errorCode]).toEqual(['http', 404, 'session_error']);
    fake.kill(pull.sessionId);
    expect((await failure(api.updateTracks(pull.sessionId, [update('1', 'q')]))).detail.status).toBe(410);
    topLevel = true;
    const top = await failure(relay.setLayer(7, 'v', 'q'));
    expect([top.code, top.detail.errorCode]).toEqual(['session', 'invalid_params']);
    expect(relay.viewer(7, 'v')?.rid).toBeUndefined();
  });
});
