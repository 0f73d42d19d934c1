import { z } from 'zod';
import type { Bindings } from '../../env';
import { VIDEO_RELAYS, type IceServersAnswer, type PublishAnswer, type PullAnswer, type SessionDescription, type VideoRelayKind, type VideoSignal } from '../../../shared/video';
import { TURN_CREDENTIAL_TTL_S, videoConfig } from '../../lib/config';
import { CloudflareSfu } from './cloudflare-sfu';
import { hasTurn, p2pRelayOnly, relayOnlySdp } from './p2p-privacy';
import { RealtimeApi, type FetchLike } from './realtime-api';
import { VideoRelayError, type SfuStore, type VideoRelay, type ViewerState } from './video-relay';

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
  constructor(
    private readonly env: Bindings,
    private readonly fetchFn?: FetchLike,
  ) {}
  /**
   * ICE_SERVERS; relay-only (production) needs TURN: Cloudflare TURN credentials when a TURN key
   * is set, else a turn: server of ICE_SERVERS, else a configuration error (no video rather than
   * the performer's address in every viewer's browser).
   */
  async iceServers(): Promise<IceServersAnswer> {
    if (!p2pRelayOnly(this.env)) return configuredIceServers(this.env);
    const c = videoConfig(this.env);
    const answer =
      c.turnKeyId && c.turnKeyApiToken
        ? { iceServers: await turnApi(this.env, this.fetchFn).turnIceServers(c.turnKeyId, c.turnKeyApiToken, TURN_CREDENTIAL_TTL_S), ttl: TURN_CREDENTIAL_TTL_S }
        : configuredIceServers(this.env);
    if (!hasTurn(answer.iceServers)) {
      throw new VideoRelayError('config', 'peer to peer in production needs TURN (TURN_KEY_ID and TURN_KEY_API_TOKEN, or a turn: server with credentials in ICE_SERVERS)');
    }
    return { ...answer, relayOnly: true };
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
  /** The performer's browser chooses what it sends each viewer (the room passes the viewer's signal on). */
  async setLayer(): Promise<void> {}
  async cutOff(): Promise<ViewerState[]> {
    return [];
  }
  async endViewer(): Promise<void> {}
  forgetViewer() {
    return null;
  }
  async closeForgotten(): Promise<void> {}
  async unpublish(): Promise<void> {}
  async receiving(): Promise<boolean> {
    return false;
  }
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

/**
 * A peer-to-peer offer or answer as the room passes it on: relay-only (production), with no
 * address but the relay's, and null (refused) when no TURN is configured to relay through.
 */
export function p2pSignal(env: Bindings, data: VideoSignal): VideoSignal | null {
  if (!p2pRelayOnly(env)) return data;
  const c = videoConfig(env);
  if (!(c.turnKeyId && c.turnKeyApiToken) && !hasTurn(configuredIceServers(env).iceServers)) return null;
  return data.kind === 'offer' || data.kind === 'answer' ? { ...data, sdp: relayOnlySdp(data.sdp) } : data;
}

/** The TURN key API alone (the peer-to-peer engine's TURN in production). */
function turnApi(env: Bindings, fetchFn: FetchLike = (url, init) => fetch(url, init)): RealtimeApi {
  const c = videoConfig(env);
  return new RealtimeApi({ base: c.realtimeApiBase, appId: '', appSecret: '', timeoutMs: c.realtimeTimeoutMs }, fetchFn);
}

export function createVideoRelay(env: Bindings, fetchFn?: FetchLike, store?: SfuStore): VideoRelay {
  return videoRelayKind(env) === 'cloudflare' ? cloudflareSfu(env, fetchFn, store) : new P2pRelay(env, fetchFn);
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

/** VIDEO_RELAY parsed; an unknown value is a configuration error, never a silent default. */
export function videoRelayKind(env: Bindings): VideoRelayKind {
  const relay = videoConfig(env).relay;
  if (!(VIDEO_RELAYS as readonly string[]).includes(relay)) {
    throw new VideoRelayError('config', `VIDEO_RELAY must be one of ${VIDEO_RELAYS.join(', ')} (got "${relay}")`);
  }
  return relay as VideoRelayKind;
}

/** Builds the engine from configuration; a missing or malformed setting is a clear error. */
export function cloudflareSfu(env: Bindings, fetchFn: FetchLike = (url, init) => fetch(url, init), store: SfuStore = {}): CloudflareSfu {
  const c = videoConfig(env);
  const missing = [!c.appId && 'REALTIME_APP_ID', !c.appSecret && 'REALTIME_APP_SECRET'].filter(Boolean);
  if (missing.length) throw new VideoRelayError('config', `VIDEO_RELAY=cloudflare needs ${missing.join(' and ')}`);
  if (!/^https?:\/\/[^/]/.test(c.realtimeApiBase) || !URL.canParse(c.realtimeApiBase)) {
    throw new VideoRelayError('config', `REALTIME_API_BASE is not an http(s) URL`);
  }
  if (!c.turnKeyId !== !c.turnKeyApiToken) {
    throw new VideoRelayError('config', 'TURN_KEY_ID and TURN_KEY_API_TOKEN go together (set both, or neither for no TURN)');
  }
  const api = new RealtimeApi({ base: c.realtimeApiBase, appId: c.appId, appSecret: c.appSecret, timeoutMs: c.realtimeTimeoutMs }, fetchFn);
  return new CloudflareSfu(api, c.turnKeyId ? { keyId: c.turnKeyId, token: c.turnKeyApiToken, ttl: TURN_CREDENTIAL_TTL_S } : null, store);
}
