import { afterEach, describe, expect, it, vi } from 'vitest';

// Issue 26 point 6: an open connection gets new TURN credentials (setConfiguration) before its
// own expire; a failed renewal is tried again a minute later; a closed connection is left alone.

function fakePc() {
  const configs: RTCConfiguration[] = [];
  return {
    configs,
    connectionState: 'connected' as RTCPeerConnectionState,
    getConfiguration: () => ({ bundlePolicy: 'max-bundle' }) as RTCConfiguration,
    setConfiguration: (c: RTCConfiguration) => void configs.push(c),
  };
}

const answer = (credential: string, ttl: number) => ({ iceServers: [{ urls: ['turn:t.test:3478'], username: 'u', credential }], ttl, relay: 'cloudflare' });

describe('keepIceFresh', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('renews at half the life left, again and again, until the connection closes', async () => {
    vi.useFakeTimers({ now: 0 });
    const answers = [answer('c-1', 14_400), answer('c-2', 14_400), answer('c-3', 14_400)];
    const fetch = vi.fn(async () => new Response(JSON.stringify(answers.shift())));
    vi.stubGlobal('fetch', fetch);
    const { iceServers, keepIceFresh } = await import('../../src/client/features/video/rtc');
    const token = { login: 's1', password: 'tok' };
    expect((await iceServers(7, token))[0].credential).toBe('c-1');
    const pc = fakePc();
    keepIceFresh(pc as unknown as RTCPeerConnection, 7, () => token);
    await vi.advanceTimersByTimeAsync(7_200_000 - 1);
    expect(pc.configs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(pc.configs).toEqual([{ bundlePolicy: 'max-bundle', iceServers: answer('c-2', 0).iceServers }]);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(String((fetch.mock.calls[1] as unknown[])[0])).toBe('/api/video/ice?show=7&login=s1&password=tok');
    await vi.advanceTimersByTimeAsync(7_200_000);
    expect(pc.configs.map((c) => c.iceServers?.[0].credential)).toEqual(['c-2', 'c-3']);
    pc.connectionState = 'closed';
    await vi.advanceTimersByTimeAsync(7_200_000);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('a failed renewal keeps the connection\'s servers and tries again a minute later', async () => {
    vi.useFakeTimers({ now: 0 });
    let fail = true;
    const fetch = vi.fn(async () => (fetch.mock.calls.length === 1 ? new Response(JSON.stringify(answer('c-1', 600))) : fail ? new Response('{}', { status: 401 }) : new Response(JSON.stringify(answer('c-2', 600)))));
    vi.stubGlobal('fetch', fetch);
    const { iceServers, keepIceFresh } = await import('../../src/client/features/video/rtc');
    const token = { login: 's1', password: 'tok' };
    await iceServers(7, token);
    const pc = fakePc();
    keepIceFresh(pc as unknown as RTCPeerConnection, 7, () => token);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(pc.configs).toEqual([]);
    fail = false;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(pc.configs.map((c) => c.iceServers?.[0].credential)).toEqual(['c-2']);
  });

  it('servers without a ttl (no TURN) are never renewed', async () => {
    vi.useFakeTimers({ now: 0 });
    const fetch = vi.fn(async () => new Response(JSON.stringify({ iceServers: [], ttl: 0, relay: 'p2p' })));
    vi.stubGlobal('fetch', fetch);
    const { iceServers, keepIceFresh } = await import('../../src/client/features/video/rtc');
    await iceServers(7, { login: 's1', password: 'tok' });
    keepIceFresh(fakePc() as unknown as RTCPeerConnection, 7, () => null);
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
