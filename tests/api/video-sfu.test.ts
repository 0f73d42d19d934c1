import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/server/env';
import { cloudflareSfu, videoRelayKind } from '../../src/server/features/video/video-engines';
import { withoutPort53 } from '../../src/server/features/video/realtime-api';
import { VideoRelayError } from '../../src/server/features/video/video-relay';
import { FakeRealtime } from './fake-realtime';

// The Cloudflare Realtime SFU engine's HTTP layer against the local fake of the documented API
// (issue 12 "Done when": serialised renegotiation, a per-track error inside a 200, track close
// on session end).

function settings(fake: FakeRealtime, over: Partial<Bindings> = {}): Bindings {
  return {
    VIDEO_RELAY: 'cloudflare',
    REALTIME_API_BASE: fake.base,
    REALTIME_APP_ID: fake.appId,
    REALTIME_APP_SECRET: fake.secret,
    TURN_KEY_ID: fake.turnKeyId,
    TURN_KEY_API_TOKEN: fake.turnToken,
    ...over,
  } as Bindings;
}

function setup(over: Partial<Bindings> = {}) {
  const fake = new FakeRealtime();
  return { fake, relay: cloudflareSfu(settings(fake, over), fake.fetch) };
}

const offer = { type: 'offer' as const, sdp: 'v=0 performer' };
const camMic = [
  { mid: '0', kind: 'audio' as const },
  { mid: '1', kind: 'video' as const },
];

/** A viewer pulls and its browser answers the SFU's offer (the realistic flow: the exchange done). */
async function pullAnswered(relay: ReturnType<typeof cloudflareSfu>, showId: number, key: string) {
  const pull = await relay.pull(showId, key);
  if (pull.relay !== 'cloudflare') throw new Error('expected the SFU');
  await relay.renegotiate(pull.sessionId, { type: 'answer', sdp: `answer of ${key}` });
  return pull;
}

async function failure(p: Promise<unknown>): Promise<VideoRelayError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VideoRelayError);
  return e as VideoRelayError;
}

describe('video relay: Cloudflare Realtime SFU engine', () => {
  it('publish creates a session and its local tracks and returns the SFU answer', async () => {
    const { fake, relay } = setup();
    const res = await relay.publish(7, offer, camMic);
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /apps/app-1/sessions/new', `POST /apps/app-1/sessions/${res.sessionId}/tracks/new`]);
    expect(fake.calls[1].body).toEqual({
      sessionDescription: offer,
      tracks: [
        { location: 'local', mid: '0', trackName: 'show-7-audio-0' },
        { location: 'local', mid: '1', trackName: 'show-7-video-1' },
      ],
    });
    expect(res.answer).toEqual({ type: 'answer', sdp: 'answer-to:v=0 performer' });
    expect([...(fake.sessions.get(res.sessionId)?.tracks.values() ?? [])].map((t) => `${t.location}:${t.mid}:${t.trackName}`)).toEqual(['local:0:show-7-audio-0', 'local:1:show-7-video-1']);
    expect(relay.publication(7)).toEqual({ sessionId: res.sessionId, tracks: res.tracks });
  });

  it('pull adds the publisher\'s tracks as remote tracks to the viewer\'s own session; the viewer\'s answer goes to renegotiate', async () => {
    const { fake, relay } = setup();
    const pub = await relay.publish(7, offer, camMic);
    const pull = await relay.pull(7, 'viewer-a');
    if (pull.relay !== 'cloudflare') throw new Error('expected the SFU');
    expect(pull.sessionId).not.toBe(pub.sessionId);
    expect(pull.renegotiate).toBe(true);
    expect(pull.offer).toEqual({ type: 'offer', sdp: `offer-for:${pull.sessionId}` });
    expect(fake.callsTo(`/sessions/${pull.sessionId}/tracks/new`)[0].body).toEqual({
      tracks: [
        { location: 'remote', sessionId: pub.sessionId, trackName: 'show-7-audio-0' },
        { location: 'remote', sessionId: pub.sessionId, trackName: 'show-7-video-1' },
      ],
    });
    expect([...(fake.sessions.get(pull.sessionId)?.tracks.values() ?? [])]).toEqual([
      { mid: '0', trackName: 'show-7-audio-0', location: 'remote', sessionId: pub.sessionId },
      { mid: '1', trackName: 'show-7-video-1', location: 'remote', sessionId: pub.sessionId },
    ]);
    expect(relay.viewer(7, 'viewer-a')).toEqual({ sessionId: pull.sessionId, tracks: pull.tracks, pending: true });
    expect(await relay.renegotiate(pull.sessionId, { type: 'answer', sdp: 'viewer answer' })).toBeNull();
    expect(fake.sessions.get(pull.sessionId)?.answers).toEqual(['viewer answer']);
    // Pulling again adds nothing: no second session, no second tracks/new.
    const before = fake.calls.length;
    expect(await relay.pull(7, 'viewer-a')).toEqual({ ...pull, offer: null, renegotiate: false });
    expect(fake.calls.length).toBe(before);
  });

  it('two renegotiations fired at once on one session run one after the other', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    const pull = await relay.pull(7, 'viewer-a');
    if (pull.relay !== 'cloudflare') throw new Error('expected the SFU');
    const both = await Promise.allSettled([relay.renegotiate(pull.sessionId, { type: 'answer', sdp: 'first' }), relay.renegotiate(pull.sessionId, { type: 'answer', sdp: 'second' })]);
    expect(fake.callsTo('/renegotiate').map((c) => c.status)).toEqual([200, 400]);
    expect(fake.overlaps).toEqual([]);
    // One offer, one answer: the second answers nothing (wrong offer/answer order).
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(fake.sessions.get(pull.sessionId)?.answers).toEqual(['first']);
  });

  it('a per-track error inside a 200 is a typed error and nothing is stored as published', async () => {
    const { fake, relay } = setup();
    fake.refuseTracks.set('show-7-video-1', 'invalid_session_description');
    const e = await failure(relay.publish(7, offer, camMic));
    expect(fake.callsTo('/tracks/new')[0].status).toBe(200);
    expect(e.code).toBe('track');
    expect(e.detail.trackErrors).toEqual([{ mid: '1', trackName: 'show-7-video-1', errorCode: 'invalid_session_description', errorDescription: 'refused by the fake' }]);
    expect(relay.publication(7)).toBeNull();
    expect((await failure(relay.pull(7, 'viewer-a'))).code).toBe('not_published');
  });

  it('a top-level errorCode inside a 200 is a typed error', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    const pull = await relay.pull(7, 'viewer-a');
    if (pull.relay !== 'cloudflare') throw new Error('expected the SFU');
    fake.renegotiateError = 'invalid_session_description';
    const e = await failure(relay.renegotiate(pull.sessionId, { type: 'answer', sdp: 'x' }));
    expect([e.code, e.detail.errorCode]).toEqual(['session', 'invalid_session_description']);
  });

  it('ending a viewer closes exactly their tracks on their session (forced), and no one else\'s', async () => {
    const { fake, relay } = setup();
    const pub = await relay.publish(7, offer, camMic);
    const a = await pullAnswered(relay, 7, 'viewer-a');
    const b = await pullAnswered(relay, 7, 'viewer-b');
    await relay.endViewer(7, 'viewer-a');
    const closes = fake.callsTo('/tracks/close');
    expect(closes.map((c) => [c.method, c.path, c.body])).toEqual([['PUT', `/apps/app-1/sessions/${a.sessionId}/tracks/close`, { tracks: [{ mid: '0' }, { mid: '1' }], force: true }]]);
    expect(fake.sessions.get(a.sessionId)?.tracks.size).toBe(0);
    expect(fake.sessions.get(b.sessionId)?.tracks.size).toBe(2);
    expect(fake.sessions.get(pub.sessionId)?.tracks.size).toBe(2);
    expect(relay.viewer(7, 'viewer-a')).toBeNull();
    expect(relay.viewer(7, 'viewer-b')?.tracks.length).toBe(2);
  });

  it('unpublish closes every viewer\'s pull and the publisher\'s tracks, then a pull finds nothing', async () => {
    const { fake, relay } = setup();
    const pub = await relay.publish(7, offer, camMic);
    const a = await pullAnswered(relay, 7, 'viewer-a');
    await relay.unpublish(7);
    expect(fake.callsTo('/tracks/close').map((c) => [c.path, c.body])).toEqual([
      [`/apps/app-1/sessions/${a.sessionId}/tracks/close`, { tracks: [{ mid: '0' }, { mid: '1' }], force: true }],
      [`/apps/app-1/sessions/${pub.sessionId}/tracks/close`, { tracks: [{ mid: '0' }, { mid: '1' }], force: true }],
    ]);
    expect([fake.sessions.get(a.sessionId)?.tracks.size, fake.sessions.get(pub.sessionId)?.tracks.size]).toEqual([0, 0]);
    expect([relay.publication(7), relay.viewer(7, 'viewer-a')]).toEqual([null, null]);
    expect((await failure(relay.pull(7, 'viewer-a'))).code).toBe('not_published');
  });

  it('a pull of a collected publication (not_found_track_error) reports the publication gone and forgets it', async () => {
    const { fake, relay } = setup();
    const pub = await relay.publish(7, offer, camMic);
    // The performer's media stopped for longer than the SFU's track timeout: its tracks are collected.
    fake.stopMedia(pub.sessionId);
    const e = await failure(relay.pull(7, 'viewer-a'));
    expect(fake.callsTo('/tracks/new')[1].status).toBe(200);
    expect([e.code, e.detail.trackErrors?.map((t) => [t.trackName, t.errorCode])]).toEqual([
      'publication_gone',
      [
        ['show-7-audio-0', 'not_found_track_error'],
        ['show-7-video-1', 'not_found_track_error'],
      ],
    ]);
    expect(relay.viewer(7, 'viewer-a')).toBeNull();
    expect(relay.publication(7)).toBeNull();
    expect((await failure(relay.pull(7, 'viewer-b'))).code).toBe('not_published');
  });

  it('a close answered 410 session_error (the session is dead) counts as closed', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    const a = await relay.pull(7, 'viewer-a');
    if (a.relay !== 'cloudflare') throw new Error('expected the SFU');
    await relay.renegotiate(a.sessionId, { type: 'answer', sdp: 'a' });
    fake.kill(a.sessionId);
    await relay.endViewer(7, 'viewer-a');
    expect(fake.callsTo(`/sessions/${a.sessionId}/tracks/close`).map((c) => c.status)).toEqual([410]);
    expect(relay.viewer(7, 'viewer-a')).toBeNull();
  });

  it('a mutation while the SFU\'s offer is unanswered waits for the answer (never a 406)', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    const a = await relay.pull(7, 'viewer-a');
    if (a.relay !== 'cloudflare') throw new Error('expected the SFU');
    const close = relay.closeTracks(a.sessionId, ['0']);
    await new Promise((r) => setTimeout(r, 60));
    expect(fake.callsTo('/tracks/close')).toEqual([]);
    await relay.renegotiate(a.sessionId, { type: 'answer', sdp: 'a' });
    await close;
    expect(fake.callsTo('/tracks/close').map((c) => c.status)).toEqual([200]);
    expect([fake.refused406, fake.overlaps]).toEqual([[], []]);
  });

  it('a viewer cut off while its exchange is pending is forgotten at once, its late answer refused, its tracks closed when the chain frees', async () => {
    const { fake, relay } = setup({ REALTIME_API_TIMEOUT_MS: '200' });
    fake.connectWaitMs = 20;
    await relay.publish(7, offer, camMic);
    const a = await relay.pull(7, 'viewer-a');
    if (a.relay !== 'cloudflare') throw new Error('expected the SFU');
    const ended = relay.endViewer(7, 'viewer-a');
    expect(relay.viewer(7, 'viewer-a')).toBeNull();
    expect((await failure(relay.renegotiate(a.sessionId, { type: 'answer', sdp: 'late' }))).code).toBe('unknown_session');
    await ended;
    expect(fake.callsTo(`/sessions/${a.sessionId}/tracks/close`).length).toBe(1);
    expect(fake.overlaps).toEqual([]);
  });

  it('the fake as documented: a session not connected after setup waits, then 425 session_error; connected in time, the call goes through; an undecodable body is decoding_error', async () => {
    const { fake, relay } = setup();
    fake.autoConnect = false;
    fake.connectWaitMs = 40;
    const pub = await relay.publish(7, offer, camMic);
    const e = await failure(relay.closeTracks(pub.sessionId, ['0']));
    expect([e.code, e.detail.status, e.detail.errorCode]).toEqual(['http', 425, 'session_error']);
    fake.connectWaitMs = 2_000;
    const close = relay.closeTracks(pub.sessionId, ['0']);
    await new Promise((r) => setTimeout(r, 50));
    fake.connect(pub.sessionId);
    await close;
    expect(fake.callsTo('/tracks/close').map((c) => c.status)).toEqual([425, 200]);
    const bad = await fake.fetch(`${fake.base}/apps/app-1/sessions/new`, { method: 'POST', headers: { authorization: 'Bearer app-secret-1' }, body: '{' });
    expect([bad.status, ((await bad.json()) as { errorCode: string }).errorCode]).toEqual([400, 'decoding_error']);
  });

  it('a failed close keeps the viewer so the close can be retried', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    await pullAnswered(relay, 7, 'viewer-a');
    fake.forceStatus = 503;
    const e = await failure(relay.endViewer(7, 'viewer-a'));
    expect([e.code, e.detail.status]).toEqual(['http', 503]);
    expect(relay.viewer(7, 'viewer-a')?.tracks.length).toBe(2);
  });

  it('every SFU call carries the app secret as bearer; a wrong secret is a typed 401', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    await pullAnswered(relay, 7, 'viewer-a');
    await relay.endViewer(7, 'viewer-a');
    expect(fake.calls.length).toBe(6);
    expect(new Set(fake.calls.map((c) => c.auth))).toEqual(new Set(['Bearer app-secret-1']));
    const wrong = cloudflareSfu(settings(fake, { REALTIME_APP_SECRET: 'not-the-secret' }), fake.fetch);
    const e = await failure(wrong.publish(8, offer, camMic));
    expect([e.code, e.detail.status]).toEqual(['http', 401]);
  });

  it('a session id the engine did not make is refused without a call', async () => {
    const { fake, relay } = setup();
    await relay.publish(7, offer, camMic);
    const before = fake.calls.length;
    expect((await failure(relay.closeTracks('s999', ['0']))).code).toBe('unknown_session');
    expect(fake.calls.length).toBe(before);
  });

  it('a call without an answer times out as a typed error', async () => {
    const { fake, relay } = setup({ REALTIME_API_TIMEOUT_MS: '50' });
    fake.hang = true;
    expect((await failure(relay.publish(7, offer, camMic))).code).toBe('timeout');
  });

  it('TURN credentials from the TURN key API become the browser\'s ICE server list, without the port-53 URLs', async () => {
    const { fake, relay } = setup();
    expect(await relay.iceServers()).toEqual({
      ttl: 14_400,
      iceServers: [
        { urls: ['stun:stun.realtime.test:3478'] },
        { urls: ['turn:turn.realtime.test:3478?transport=udp', 'turns:turn.realtime.test:443?transport=tcp'], username: 'u-14400', credential: 'c-1' },
      ],
    });
    expect(fake.calls.map((c) => [c.method, c.path, c.auth, c.body])).toEqual([['POST', '/turn/keys/turn-key-1/credentials/generate-ice-servers', 'Bearer turn-token-1', { ttl: 14_400 }]]);
    fake.turnSingleObject = true;
    expect((await relay.iceServers()).iceServers).toEqual([{ urls: ['turn:turn.realtime.test:3478?transport=udp'], username: 'u-14400', credential: 'c-2' }]);
    const noTurn = setup({ TURN_KEY_ID: '', TURN_KEY_API_TOKEN: '' });
    expect(await noTurn.relay.iceServers()).toEqual({ iceServers: [], ttl: 0 });
    expect(noTurn.fake.calls).toEqual([]);
  });

  it('withoutPort53 drops port-53 URLs and servers left without any; other ports stay', () => {
    expect(
      withoutPort53([
        { urls: ['stun:a.test:53'] },
        { urls: ['turn:a.test:53?transport=udp', 'turn:a.test:5349?transport=tcp', 'turns:a.test:443?transport=tcp', 'turn:a.test:530'], username: 'u', credential: 'c' },
      ]),
    ).toEqual([{ urls: ['turn:a.test:5349?transport=tcp', 'turns:a.test:443?transport=tcp', 'turn:a.test:530'], username: 'u', credential: 'c' }]);
  });

  it('bad configuration answers a clear error naming the setting', () => {
    const fake = new FakeRealtime();
    const configError = (over: Partial<Bindings>) => {
      try {
        cloudflareSfu(settings(fake, over), fake.fetch);
      } catch (e) {
        return e instanceof VideoRelayError ? `${e.code}: ${e.message}` : String(e);
      }
      return 'no error';
    };
    expect(configError({ REALTIME_APP_ID: '' })).toBe('config: VIDEO_RELAY=cloudflare needs REALTIME_APP_ID');
    expect(configError({ REALTIME_APP_ID: undefined, REALTIME_APP_SECRET: ' ' })).toBe('config: VIDEO_RELAY=cloudflare needs REALTIME_APP_ID and REALTIME_APP_SECRET');
    expect(configError({ REALTIME_API_BASE: 'ftp://example.test' })).toBe('config: REALTIME_API_BASE is not an http(s) URL');
    expect(configError({ TURN_KEY_API_TOKEN: '' })).toBe('config: TURN_KEY_ID and TURN_KEY_API_TOKEN go together (set both, or neither for no TURN)');
    expect(configError({})).toBe('no error');
    expect(() => videoRelayKind({ VIDEO_RELAY: 'sfu' } as Bindings)).toThrow('VIDEO_RELAY must be one of p2p, cloudflare (got "sfu")');
    expect(videoRelayKind({} as Bindings)).toBe('p2p');
    expect(videoRelayKind({ VIDEO_RELAY: 'cloudflare' } as Bindings)).toBe('cloudflare');
  });
});
