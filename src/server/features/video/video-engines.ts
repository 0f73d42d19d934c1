import { z } from 'zod';
import type { Bindings } from '../../env';
import type { IceServersAnswer, PublishAnswer, PullAnswer, SessionDescription } from '../../../shared/video';
import { cloudflareSfu, type SfuStore } from './cloudflare-sfu';
import type { FetchLike } from './realtime-api';
import { videoRelayKind, VideoRelayError, type VideoRelay } from './video-relay';

// The two engines behind VideoRelay, chosen by VIDEO_RELAY (issue 12 point 1).

const iceServersConfig = z.array(
  z.object({
    urls: z.union([z.string().regex(/^(stun|stuns|turn|turns):/), z.array(z.string().regex(/^(stun|stuns|turn|turns):/)).min(1)]),
    username: z.string().optional(),
    credential: z.string().optional(),
  }),
);

/** ICE_SERVERS (JSON, RTCIceServer[]): the STUN/TURN servers browsers use with the peer-to-peer engine; none by default (loopback and a LAN need none). */
export function configuredIceServers(env: Bindings): IceServersAnswer {
  const raw = env.ICE_SERVERS?.trim();
  if (!raw) return { iceServers: [], ttl: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new VideoRelayError('config', 'ICE_SERVERS is not JSON');
  }
  const r = iceServersConfig.safeParse(parsed);
  if (!r.success) throw new VideoRelayError('config', 'ICE_SERVERS must be a list of { urls, username?, credential? } with stun:/turn: URLs');
  return { iceServers: r.data.map((s) => ({ ...s, urls: Array.isArray(s.urls) ? s.urls : [s.urls] })), ttl: 0 };
}

/**
 * Peer-to-peer: the performer's browser sends to each permitted viewer; the room only relays the
 * offers and answers and enforces who may receive (and the viewer cap). Nothing to call here.
 */
export class P2pRelay implements VideoRelay {
  readonly kind = 'p2p' as const;
  constructor(private readonly env: Bindings) {}
  async iceServers(): Promise<IceServersAnswer> {
    return configuredIceServers(this.env);
  }
  async publish(): Promise<PublishAnswer> {
    throw new VideoRelayError('config', 'the peer-to-peer engine publishes from the browser');
  }
  async pull(): Promise<PullAnswer> {
    return { relay: 'p2p' };
  }
  async renegotiate(_sessionId: string, _answer: SessionDescription): Promise<SessionDescription | null> {
    throw new VideoRelayError('unknown_session', 'the peer-to-peer engine holds no sessions');
  }
  async closeTracks(): Promise<void> {}
  async endViewer(): Promise<void> {}
  forgetViewer() {
    return null;
  }
  async closeForgotten(): Promise<void> {}
  async unpublish(): Promise<void> {}
  publication() {
    return null;
  }
  viewer() {
    return null;
  }
  viewerKeys(): string[] {
    return [];
  }
}

export function createVideoRelay(env: Bindings, fetchFn?: FetchLike, store?: SfuStore): VideoRelay {
  return videoRelayKind(env) === 'cloudflare' ? cloudflareSfu(env, fetchFn, store) : new P2pRelay(env);
}

/** The published tracks of an offer: each m= section's kind and mid. */
export function offerTracks(sdp: string): { mid: string; kind: 'audio' | 'video' }[] {
  const out: { mid: string; kind: 'audio' | 'video' }[] = [];
  for (const section of sdp.split(/\r?\nm=/).slice(1)) {
    const kind = section.startsWith('audio') ? 'audio' : section.startsWith('video') ? 'video' : null;
    const mid = /\r?\na=mid:([^\r\n]+)/.exec(section)?.[1];
    if (kind && mid && !/\r?\na=(recvonly|inactive)/.test(section)) out.push({ mid, kind });
  }
  return out;
}
