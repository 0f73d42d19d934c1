import type { IceServersAnswer, VideoRelayKind } from '../../../shared/video';

// WebRTC helpers both sides share: the ICE servers (one endpoint, cached for half their life and
// renewed on open connections before they expire),
// VP8 first (Debian's Chromium may lack H.264), and a description with its candidates in it
// (no trickle: the same one-offer-one-answer exchange for the peer-to-peer and the SFU engine).

/** The room token the ICE endpoint takes (the socket's last credentials). */
export interface RoomToken {
  login: string;
  password: string;
}

export const webrtcSupported = () => typeof RTCPeerConnection === 'function';

let cached: { at: number; answer: IceServersAnswer & { relay: VideoRelayKind } } | null = null;

/** Where the servers come from instead of the room token's endpoint (an operator's hidden watch: its own, behind the operators' door). */
export const iceSource: { url: (() => string) | null } = { url: null };

/** GET /api/video/ice with the room token; the last good answer when the token is stale. */
export async function iceServers(showId: number, creds: RoomToken | null): Promise<RTCIceServer[]> {
  const fresh = cached && (cached.answer.ttl === 0 || Date.now() - cached.at < (cached.answer.ttl * 1000) / 2);
  if (fresh && cached) return cached.answer.iceServers;
  const url = iceSource.url?.() ?? (creds ? `/api/video/ice?${new URLSearchParams({ show: String(showId), login: creds.login, password: creds.password })}` : null);
  if (url) {
    try {
      const res = await fetch(url, { credentials: 'same-origin' });
      if (res.ok) cached = { at: Date.now(), answer: await res.json() };
    } catch {
      // offline for a moment: the last servers, or none (loopback and a LAN need none)
    }
  }
  return cached?.answer.iceServers ?? [];
}

/** A connection's configuration: the servers, and relay-only where the ICE endpoint says so (production peer to peer). */
export async function rtcConfig(showId: number, creds: RoomToken | null): Promise<RTCConfiguration> {
  const servers = await iceServers(showId, creds);
  return { iceServers: servers, iceTransportPolicy: cached?.answer.relayOnly ? 'relay' : 'all' };
}

/** After a failed renewal, try again this much later. */
const ICE_RETRY_MS = 60_000;

/**
 * Renews a connection's TURN credentials before they expire: at half their life the servers are
 * fetched again and handed to the connection with setConfiguration (a show over TURN outlives one
 * credential). Stops once the connection is closed; servers without a ttl never expire.
 */
export function keepIceFresh(pc: RTCPeerConnection, showId: number, creds: () => RoomToken | null): void {
  const issued = cached;
  if (!issued || issued.answer.ttl === 0) return;
  const due = issued.at + (issued.answer.ttl * 1000) / 2 - Date.now();
  setTimeout(async () => {
    if (pc.connectionState === 'closed') return;
    const servers = await iceServers(showId, creds());
    if (cached === issued) {
      // Not renewed (offline, or the token died with the session): later, unless closed by then.
      setTimeout(() => keepIceFresh(pc, showId, creds), ICE_RETRY_MS);
      return;
    }
    try {
      pc.setConfiguration({ ...pc.getConfiguration(), iceServers: servers });
    } catch {
      // closed meanwhile
    }
    keepIceFresh(pc, showId, creds);
  }, Math.max(due, 0));
}

/** VP8 first on a video transceiver. */
export function preferVp8(t: RTCRtpTransceiver): void {
  try {
    const codecs = RTCRtpReceiver.getCapabilities?.('video')?.codecs ?? [];
    const vp8 = codecs.filter((c) => /vp8/i.test(c.mimeType));
    if (vp8.length) t.setCodecPreferences([...vp8, ...codecs.filter((c) => !/vp8/i.test(c.mimeType))]);
  } catch {
    // older browsers: their default order
  }
}

/** The local description once ICE gathering is complete (or after `maxMs`, with what was gathered). */
export async function gatheredSdp(pc: RTCPeerConnection, maxMs = 2_000): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      pc.addEventListener('icegatheringstatechange', () => {
        if (pc.iceGatheringState === 'complete') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }
  return pc.localDescription?.sdp ?? '';
}
