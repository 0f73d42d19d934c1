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
