// Live video wire types shared by the worker, the room and the browser (issue 12).
// The browser never talks to a video relay's API: it sends its SDP to the worker (or, with the
// peer-to-peer engine, to the room), which answers with the types below.

/** Which engine delivers video: the performer's browser to each viewer, or Cloudflare's SFU. */
export const VIDEO_RELAYS = ['p2p', 'cloudflare'] as const;
export type VideoRelayKind = (typeof VIDEO_RELAYS)[number];

/** One entry of RTCConfiguration.iceServers, as the browser takes it. */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

/** What `GET` of the ICE endpoint answers: the servers and how long their credentials live. */
export interface IceServersAnswer {
  iceServers: IceServer[];
  /** Seconds the TURN credentials stay valid (0 when there are none). */
  ttl: number;
  /** Gather relay (TURN) candidates only: the peer-to-peer engine in production never shows a browser's address. */
  relayOnly?: boolean;
}

export type SdpType = 'offer' | 'answer';

export interface SessionDescription {
  type: SdpType;
  sdp: string;
}

export type MediaKind = 'audio' | 'video';

/** A track the publisher offers: its transceiver's mid in the offer, and its kind. */
export interface PublishTrack {
  mid: string;
  kind: MediaKind;
}

/** A track as the relay knows it: its mid on the session it lives on, and its name. */
export interface RelayTrack {
  mid: string;
  trackName: string;
  kind: MediaKind;
}

/** The performer's browser sends its offer with the tracks it publishes. */
export interface PublishRequest {
  offer: SessionDescription;
  tracks: PublishTrack[];
}

/** The relay's answer to the publisher (SFU: one session for all viewers). */
export interface PublishAnswer {
  relay: 'cloudflare';
  sessionId: string;
  answer: SessionDescription;
  tracks: RelayTrack[];
}

/**
 * What a viewer gets back when it asks for the show's video.
 * - cloudflare: the SFU's offer for the viewer's session; the viewer answers with a
 *   RenegotiateRequest when `renegotiate` is true.
 * - p2p: the performer's browser will offer through the room socket (no SDP here).
 */
export type PullAnswer =
  | { relay: 'cloudflare'; sessionId: string; offer: SessionDescription | null; renegotiate: boolean; tracks: RelayTrack[] }
  | { relay: 'p2p' };

/** The viewer's (or publisher's) answer to an offer the relay made. */
export interface RenegotiateRequest {
  sessionId: string;
  answer: SessionDescription;
}

// ---- the show room's video protocol (both engines ride on the room socket) ----

/**
 * What a viewer's session gets, as the room decides it (issue 12 point 2):
 * live: the performer's video is for you; camera_off: the show is online but its performer
 * publishes no video (the simulator's demo shows); private: a private or exclusive runs and you
 * are not in it; paused / offline: the show's state; full: the peer-to-peer engine's viewer cap;
 * waiting: your request is not accepted (or your first minute not paid) yet, the preview shows.
 */
export const VIEWER_VIDEO_STATES = ['live', 'camera_off', 'private', 'paused', 'offline', 'full', 'waiting'] as const;
export type ViewerVideoState = (typeof VIEWER_VIDEO_STATES)[number];

/**
 * Signalling payloads (RoomCommand/RoomEvent `signal` data). The viewer asks (`want`) whenever it
 * needs a fresh connection; the sender (the performer's browser with p2p, the worker with the
 * SFU) offers; the viewer answers. Descriptions carry their ICE candidates (no trickle): one
 * offer and one answer per connection, the same for both engines.
 */
export type VideoSignal = { kind: 'want' } | { kind: 'offer'; sdp: string } | { kind: 'answer'; sdp: string } | { kind: 'bye' } | { kind: 'layer'; rid: VideoLayer };

/**
 * Simulcast layers by RID, as the studio names its encodings: f(ull), h(alf), q(uarter). Named so
 * that ASCII order is quality order (the SFU's 'asciibetical' policy takes "a" as most desirable).
 */
export const SIMULCAST_RIDS = ['f', 'h', 'q'] as const;
export type SimulcastRid = (typeof SIMULCAST_RIDS)[number];
/** What a viewer may ask for: a layer, or 'auto' (the best the publisher sends, falling back in RID order). */
export type VideoLayer = SimulcastRid | 'auto';

/**
 * Largest SDP accepted in a signal. Measured: Chromium's offer of one audio and one video track
 * (every codec, simulcast or not) with its 8 host candidates is 6.2 KB, the answer 4.9-5.1 KB;
 * this leaves room for a machine with many interfaces and relay candidates (about 110 bytes
 * each), not for padding.
 */
export const VIDEO_SDP_MAX = 16_000;

/** Viewers one performer's browser sends to with the peer-to-peer engine; VIDEO_P2P_MAX_VIEWERS overrides. */
export const VIDEO_P2P_MAX_VIEWERS = 8;

export function parseVideoSignal(v: unknown): VideoSignal | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as { kind?: unknown; sdp?: unknown; rid?: unknown };
  if (o.kind === 'want' || o.kind === 'bye') return { kind: o.kind };
  if (o.kind === 'layer' && (o.rid === 'auto' || (SIMULCAST_RIDS as readonly unknown[]).includes(o.rid))) return { kind: 'layer', rid: o.rid as VideoLayer };
  if ((o.kind === 'offer' || o.kind === 'answer') && typeof o.sdp === 'string' && o.sdp.length > 0 && o.sdp.length <= VIDEO_SDP_MAX) return { kind: o.kind, sdp: o.sdp };
  return null;
}

/**
 * An operator's hidden watch of a show (issue 29 point 2): its room id and socket tag. No session
 * id starts with the prefix (they are UUIDs), so the room tells a watcher from a viewer by its id.
 */
export const WATCHER_PREFIX = 'watch-';
export const WATCH_TAG = 'watch';
export const isWatcherId = (id: string) => id.startsWith(WATCHER_PREFIX);
