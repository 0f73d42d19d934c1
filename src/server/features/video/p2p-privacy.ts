import type { Bindings } from '../../env';
import type { IceServer } from '../../../shared/video';

// The performer's address never reaches a viewer (issue 26 point 4). Peer to peer, a browser's
// description lists its host and server-reflexive (public) addresses; in production the
// peer-to-peer engine therefore runs relay-only: browsers gather TURN candidates only
// (iceTransportPolicy 'relay'), and the room removes any other address from what it passes on,
// so a modified browser cannot leak one either.

/** Relay-only peer to peer: always in production; elsewhere when VIDEO_P2P_RELAY_ONLY=1 (tests, a local TURN). */
export function p2pRelayOnly(env: Bindings): boolean {
  return env.ENVIRONMENT === 'production' || env.VIDEO_P2P_RELAY_ONLY === '1';
}

/** Whether a server list can relay: a turn:/turns: URL with credentials. */
export function hasTurn(servers: IceServer[]): boolean {
  return servers.some((s) => s.username && s.credential && s.urls.some((u) => /^turns?:/.test(u)));
}

const unspecified = (v: string) => (v === '6' ? '::' : '0.0.0.0');

/**
 * A description with every address but the relay's removed: candidates other than `typ relay`
 * are dropped, a relay candidate's related address (the browser's public one) is blanked, and
 * the origin and connection lines (which ICE does not use) carry no address.
 */
export function relayOnlySdp(sdp: string): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  return sdp
    .split(/\r?\n/)
    .filter((line) => !line.startsWith('a=candidate:') || /\styp relay(\s|$)/.test(line))
    .map((line) =>
      line
        .replace(/ raddr \S+ rport \d+/, ' raddr 0.0.0.0 rport 0')
        .replace(/^(o=.* IN IP)([46]) \S+$/, (_, head: string, v: string) => `${head}${v} ${v === '6' ? '::1' : '127.0.0.1'}`)
        .replace(/^c=IN IP([46]) \S+/, (_, v: string) => `c=IN IP${v} ${unspecified(v)}`)
        .replace(/^a=rtcp:(\d+) IN IP([46]) \S+/, (_, port: string, v: string) => `a=rtcp:${port} IN IP${v} ${unspecified(v)}`),
    )
    .join(eol);
}
