import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/server/env';
import { videoTestHooks, type VideoHost } from '../../src/server/features/video/video-host';
import { ICE_SHARE_MS, newVideoState, videoIce } from '../../src/server/features/video/video-room.service';
import { P2pRelay } from '../../src/server/features/video/video-engines';
import { FakeRealtime } from './fake-realtime';

// TURN as Cloudflare asks (issue 26 point 6): a room issues credentials once and shares them for
// ICE_SHARE_MS, parallel askers included; each answer carries the life left, so browsers refresh
// before it ends; a failed issue is not kept.

function host(fake: FakeRealtime): VideoHost {
  const env = {
    VIDEO_RELAY: 'cloudflare',
    REALTIME_API_BASE: fake.base,
    REALTIME_APP_ID: fake.appId,
    REALTIME_APP_SECRET: fake.secret,
    TURN_KEY_ID: fake.turnKeyId,
    TURN_KEY_API_TOKEN: fake.turnToken,
  } as Bindings;
  return { ctx: {} as DurableObjectState, env, show: null, sessions: new Map(), video: newVideoState(new Map()), send: () => undefined };
}

const credential = (a: Awaited<ReturnType<typeof videoIce>>) => a?.iceServers.find((s) => s.credential)?.credential;

describe('a room\'s ICE servers', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete videoTestHooks.fetch;
  });

  it('one issue per room for ICE_SHARE_MS, the ttl counting down; then a new one', async () => {
    const fake = new FakeRealtime();
    videoTestHooks.fetch = fake.fetch;
    let now = 1_800_000_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const h = host(fake);
    const burst = await Promise.all([videoIce(h, 'performer'), videoIce(h, 'performer'), videoIce(h, 'performer')]);
    expect(fake.turnIssued).toBe(1);
    expect(burst.map(credential)).toEqual(['c-1', 'c-1', 'c-1']);
    expect(burst[0]).toMatchObject({ relay: 'cloudflare', ttl: 14_400 });
    expect(JSON.stringify(burst[0])).not.toMatch(/:53\b/);
    now += ICE_SHARE_MS - 1000;
    const later = await videoIce(h, 'performer');
    expect(credential(later)).toBe('c-1');
    expect(later?.ttl).toBe(14_400 - (ICE_SHARE_MS - 1000) / 1000);
    now += 1000;
    const renewed = await videoIce(h, 'performer');
    expect(credential(renewed)).toBe('c-2');
    expect(renewed?.ttl).toBe(14_400);
    expect(fake.turnIssued).toBe(2);
  });

  it('a session the room sends no video gets nothing and costs nothing; a failed issue is asked again', async () => {
    const fake = new FakeRealtime();
    videoTestHooks.fetch = fake.fetch;
    const h = host(fake);
    expect(await videoIce(h, 'a-session-not-in-the-room')).toBeNull();
    expect(fake.turnIssued).toBe(0);
    videoTestHooks.fetch = async () => new Response('{}', { status: 500 });
    h.video.relay = null;
    await expect(videoIce(h, 'performer')).rejects.toThrow(/answered 500/);
    videoTestHooks.fetch = fake.fetch;
    h.video.relay = null;
    expect(credential(await videoIce(h, 'performer'))).toBe('c-1');
  });

  it('peer to peer relay-only (production) takes Cloudflare TURN when a TURN key is set, else a turn: server of ICE_SERVERS, else refuses', async () => {
    const fake = new FakeRealtime();
    const p2p = (over: Partial<Bindings>) => new P2pRelay({ ENVIRONMENT: 'production', REALTIME_API_BASE: fake.base, ...over } as Bindings, fake.fetch);
    const viaKey = await p2p({ TURN_KEY_ID: fake.turnKeyId, TURN_KEY_API_TOKEN: fake.turnToken }).iceServers();
    expect(viaKey).toMatchObject({ relayOnly: true, ttl: 14_400 });
    expect(JSON.stringify(viaKey)).not.toMatch(/:53\b/);
    expect(credential({ ...viaKey, relay: 'p2p' })).toBe('c-1');
    const turn = [{ urls: ['turn:turn.example.test:3478'], username: 'u', credential: 'c' }];
    expect(await p2p({ ICE_SERVERS: JSON.stringify(turn) }).iceServers()).toEqual({ iceServers: turn, ttl: 0, relayOnly: true });
    await expect(p2p({ ICE_SERVERS: JSON.stringify([{ urls: 'stun:stun.example.test:3478' }]) }).iceServers()).rejects.toThrow(/needs TURN/);
    await expect(p2p({}).iceServers()).rejects.toThrow(/needs TURN/);
    // Outside production (and without VIDEO_P2P_RELAY_ONLY) nothing changes: no TURN needed.
    expect(await new P2pRelay({ ENVIRONMENT: 'development' } as Bindings).iceServers()).toEqual({ iceServers: [], ttl: 0 });
  });
});
