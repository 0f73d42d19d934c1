import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import { startLocalSfu } from '../../scripts/local-sfu.mjs';
import { CloudflareSfu } from '../../src/server/features/video/cloudflare-sfu';
import { RealtimeApi, type FetchLike } from '../../src/server/features/video/realtime-api';
import { FakeRealtime } from '../api/fake-realtime';
import { closePeers, peer, vp8Packet, waitFor } from './local-sfu-peers';

// Issue 28 point 3: one suite, two backends. The production engine (CloudflareSfu over
// RealtimeApi, as a show room runs it) publishes, pulls, answers, ends a viewer, tells whether
// the SFU still gets media and unpublishes, against the JSON fake the Workers tests use
// (tests/api/fake-realtime.ts: documented answers, no media) and against the local stand-in
// (tools/local-sfu: the same API, real RTP through werift). What differs is only how a browser
// takes part: with the stand-in a werift peer answers, connects and sends packets; the fake takes
// any SDP and its media is a switch.

interface Backend {
  engine: CloudflareSfu;
  /** The browser's answer to the SFU's offer of a pull. */
  answer(offer: string): Promise<string>;
  /** The publisher's browser takes the SFU's answer (and connects, and sends). */
  published(pub: Publisher, answer: string): Promise<void>;
  /** A viewer's session gets media from the publication. */
  flowing(sessionId: string): Promise<boolean>;
  /** The publisher stops sending (a network drop). */
  stopMedia(pub: Publisher, sessionId: string): void;
  stop(): Promise<void>;
}

const SHOW = 7;

/** The engine a show room builds (video-engines.ts cloudflareSfu), without TURN. */
const engineFor = (base: string, appId: string, appSecret: string, fetchFn: FetchLike) => new CloudflareSfu(new RealtimeApi({ base, appId, appSecret, timeoutMs: 5_000 }, fetchFn), null);

type Publisher = ReturnType<typeof publisherPeer>;

/** A publisher's browser: one sendonly VP8 track, 50 packets a second once connected. */
function publisherPeer() {
  const pc = peer();
  const transceiver = pc.addTransceiver('video', { direction: 'sendonly' });
  let timer: ReturnType<typeof setInterval> | undefined;
  let n = 0;
  return {
    pc,
    async offer() {
      await pc.setLocalDescription(await pc.createOffer());
      return pc.localDescription?.sdp ?? '';
    },
    tracks: () => [{ mid: transceiver.mid ?? '', kind: 'video' as const }],
    send() {
      timer = setInterval(() => transceiver.sender.sendRtp(vp8Packet(n, n * 1800, n++ % 50 === 0)).catch(() => undefined), 20);
    },
    stop: () => clearInterval(timer),
  };
}

async function fakeBackend(): Promise<Backend> {
  const fake = new FakeRealtime();
  return {
    engine: engineFor(fake.base, fake.appId, fake.secret, fake.fetch),
    answer: async (offer) => `answer to ${offer}`,
    published: async () => undefined,
    flowing: async (sessionId) => (fake.sessions.get(sessionId)?.answers.length ?? 0) > 0 && fake.sessions.get(sessionId)?.connection === 'connected',
    stopMedia: (_pub, sessionId) => fake.stopMedia(sessionId, false),
    stop: async () => undefined,
  };
}

async function standInBackend(): Promise<Backend> {
  const sfu = await startLocalSfu({ appId: 'contract' });
  const received = new Map<RTCPeerConnection, number>();
  const viewers = new Map<string, RTCPeerConnection>();
  let lastViewer: RTCPeerConnection | null = null;
  const stats = () => sfu.control<{ sessions: Record<string, { forwarded: Record<string, number> }> }>('/stats');
  return {
    engine: engineFor(sfu.base, sfu.appId, sfu.secret, (url, init) => fetch(url, init)),
    async answer(offer) {
      const pc = peer();
      received.set(pc, 0);
      pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => received.set(pc, (received.get(pc) ?? 0) + 1)));
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      await pc.setLocalDescription(await pc.createAnswer());
      lastViewer = pc;
      return pc.localDescription?.sdp ?? '';
    },
    async published(pub, answer) {
      await pub.pc.setRemoteDescription({ type: 'answer', sdp: answer });
      await waitFor('the publisher connects', () => pub.pc.connectionState === 'connected');
      pub.send();
    },
    async flowing(sessionId) {
      if (lastViewer && !viewers.has(sessionId)) viewers.set(sessionId, lastViewer);
      const pc = viewers.get(sessionId);
      const forwarded = Object.values((await stats()).sessions[sessionId]?.forwarded ?? {}).reduce((a, b) => a + b, 0);
      return !!pc && (received.get(pc) ?? 0) >= 10 && forwarded >= 10;
    },
    stopMedia: (pub) => pub.stop(),
    stop: () => sfu.stop(),
  };
}

for (const [name, start] of [
  ['the JSON fake', fakeBackend],
  ['the local stand-in (real RTP)', standInBackend],
] as const) {
  describe(`the SFU engine against ${name}`, () => {
    let b: Backend;
    const publishers: Publisher[] = [];
    const newPublisher = () => {
      const pub = publisherPeer();
      publishers.push(pub);
      return pub;
    };
    beforeAll(async () => {
      b = await start();
    }, 30_000);
    afterAll(async () => {
      for (const pub of publishers) pub.stop();
      await closePeers();
      await b?.stop();
    });

    it('publishes, a viewer pulls and answers and gets media, the viewer is ended, the publication is unpublished', async () => {
      const pub = newPublisher();
      const offer = await pub.offer();
      const published = await b.engine.publish(SHOW, { type: 'offer', sdp: offer }, pub.tracks());
      expect(published.answer.type).toBe('answer');
      expect(published.tracks.map((t) => t.kind)).toEqual(['video']);
      await b.published(pub, published.answer.sdp);
      await waitFor('the SFU gets the publication', () => b.engine.receiving(SHOW));

      const pulled = await b.engine.pull(SHOW, 'viewer-1');
      if (pulled.relay !== 'cloudflare') throw new Error('a pull of the SFU engine answered p2p');
      expect(pulled.renegotiate).toBe(true);
      expect(pulled.offer?.type).toBe('offer');
      await b.engine.renegotiate(pulled.sessionId, { type: 'answer', sdp: await b.answer(pulled.offer!.sdp) });
      await waitFor('the viewer gets media', () => b.flowing(pulled.sessionId));
      // Pulled again while it holds every track: nothing new to negotiate.
      expect(await b.engine.pull(SHOW, 'viewer-1')).toMatchObject({ sessionId: pulled.sessionId, offer: null, renegotiate: false });

      await b.engine.endViewer(SHOW, 'viewer-1');
      expect(b.engine.viewer(SHOW, 'viewer-1')).toBeNull();
      await b.engine.unpublish(SHOW);
      expect(b.engine.publication(SHOW)).toBeNull();
      expect(await b.engine.receiving(SHOW)).toBe(false);
    }, 60_000);

    it('tells a publication whose media stopped from one that sends (an OBS reconnect replaces only the first)', async () => {
      const pub = newPublisher();
      const offer = await pub.offer();
      const published = await b.engine.publish(SHOW, { type: 'offer', sdp: offer }, pub.tracks());
      await b.published(pub, published.answer.sdp);
      await waitFor('the SFU gets the publication', () => b.engine.receiving(SHOW));
      b.stopMedia(pub, published.sessionId);
      await waitFor('the SFU marks it inactive', async () => !(await b.engine.receiving(SHOW)), 15_000);
      await b.engine.unpublish(SHOW);
    }, 60_000);
  });
}
