import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../src/client/state/store';
import { setAppStore } from '../../src/client/state/app-store';
import { videoSlice } from '../../src/client/features/video/video.slice';
import { DISCONNECT_GRACE_MS, FAILED_AFTER, publishToRelay, relayAnswer, RETRY_FIRST_MS, stopRelay } from '../../src/client/features/video/relay-publisher';
import type { PublisherLink } from '../../src/client/features/video/publisher';

// Issue 26 point 3: the studio tells the truth about its SFU publish. On air only once the
// connection is up; a lost or failed one is published again with backoff (the second attempt
// with a fresh studio socket); after FAILED_AFTER attempts it says "failed" and keeps trying.

class FakePc {
  static made: FakePc[] = [];
  connectionState: RTCPeerConnectionState = 'new';
  signalingState: RTCSignalingState = 'stable';
  iceGatheringState: RTCIceGatheringState = 'complete';
  localDescription: RTCSessionDescriptionInit | null = null;
  onconnectionstatechange: (() => void) | null = null;
  constructor(readonly config: RTCConfiguration) {
    FakePc.made.push(this);
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: `v=0 offer ${FakePc.made.length}` };
  }
  async setLocalDescription(d: RTCSessionDescriptionInit) {
    this.localDescription = d;
    this.signalingState = 'have-local-offer';
  }
  async setRemoteDescription(d: RTCSessionDescriptionInit) {
    if (d.sdp === 'unusable') throw new Error('bad answer');
    this.signalingState = 'stable';
  }
  close() {
    this.connectionState = 'closed';
  }
  become(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

let store: RootState;
let sent: unknown[];
let reconnects: number;
let wanted: boolean;
const link: PublisherLink = {
  showId: () => 7,
  send: (cmd) => {
    sent.push(cmd);
    return true;
  },
  creds: () => null,
  canPublish: () => true,
  reconnect: () => void reconnects++,
};
const deps = { link, newPc: (c: RTCConfiguration) => new FakePc(c) as unknown as RTCPeerConnection, wanted: () => wanted };
const last = () => FakePc.made[FakePc.made.length - 1];
const offers = () => sent.filter((c) => (c as { t: string }).t === 'signal').length;

describe('publishing to the SFU', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    store = videoSlice() as unknown as RootState;
    setAppStore(store);
    FakePc.made = [];
    sent = [];
    reconnects = 0;
    wanted = true;
  });
  afterEach(() => {
    stopRelay(true);
    vi.useRealTimers();
  });

  it('is "connecting" until the relay connection is up, then "connected"', async () => {
    await publishToRelay(deps);
    expect(store.publisher.link).toBe('connecting');
    expect(sent).toEqual([{ t: 'signal', to: 'relay', data: { kind: 'offer', sdp: 'v=0 offer 1' } }]);
    relayAnswer('v=0 answer');
    await vi.advanceTimersByTimeAsync(0);
    last().become('connected');
    expect(store.publisher.link).toBe('connected');
    expect(store.publisher.live).toBe(true);
  });

  it('a connection lost past the grace is published again after a second, and is live again when it connects', async () => {
    await publishToRelay(deps);
    last().become('connected');
    last().become('disconnected');
    expect(store.publisher.link).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(DISCONNECT_GRACE_MS - 1);
    expect(FakePc.made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakePc.made[0].connectionState).toBe('closed');
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS);
    expect(FakePc.made).toHaveLength(2);
    expect(offers()).toBe(2);
    last().become('connected');
    expect(store.publisher.link).toBe('connected');
  });

  it('a disconnection that recovers within the grace publishes nothing new', async () => {
    await publishToRelay(deps);
    last().become('connected');
    last().become('disconnected');
    await vi.advanceTimersByTimeAsync(DISCONNECT_GRACE_MS / 2);
    last().become('connected');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakePc.made).toHaveLength(1);
    expect(store.publisher.link).toBe('connected');
  });

  it('keeps failing: backoff 1, 2, 4, 8 s, a fresh studio socket at the second attempt, "failed" after FAILED_AFTER, and still trying', async () => {
    await publishToRelay(deps);
    const waits: number[] = [];
    for (let n = 1; n <= FAILED_AFTER + 1; n++) {
      last().become('failed');
      expect(store.publisher.link).toBe(n > FAILED_AFTER ? 'failed' : 'reconnecting');
      const before = FakePc.made.length;
      let waited = 0;
      while (FakePc.made.length === before) {
        await vi.advanceTimersByTimeAsync(250);
        waited += 250;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(reconnects).toBe(1);
    expect(store.publisher.link).toBe('failed');
    last().become('connected');
    expect(store.publisher.link).toBe('connected');
  });

  it('an answer that never comes, or one the browser cannot use, is a failed attempt', async () => {
    await publishToRelay(deps);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(store.publisher.link).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS);
    expect(FakePc.made).toHaveLength(2);
    relayAnswer('unusable');
    await vi.advanceTimersByTimeAsync(0);
    expect(FakePc.made[1].connectionState).toBe('closed');
    expect(store.publisher.link).toBe('reconnecting');
  });

  it('no new attempt once the camera or the show stopped', async () => {
    await publishToRelay(deps);
    last().become('failed');
    wanted = false;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakePc.made).toHaveLength(1);
  });
});
