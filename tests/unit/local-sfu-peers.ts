import { RTCPeerConnection, RtpHeader, RtpPacket, useH264, useSdesMid, useSdesRTPStreamId, useVP8 } from 'werift';

// werift peers and hand-made VP8 RTP for tests/unit/local-sfu.test.ts.

const peers: RTCPeerConnection[] = [];

export async function closePeers(): Promise<void> {
  await Promise.all(peers.splice(0).map((pc) => pc.close().catch(() => undefined)));
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`waited ${limitMs} ms for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sum = (counts: Record<string, number> | undefined) => Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

export function peer(): RTCPeerConnection {
  const pc = new RTCPeerConnection({
    iceServers: [],
    bundlePolicy: 'max-bundle',
    codecs: { video: [useVP8(), useH264()] },
    headerExtensions: { video: [useSdesMid(), useSdesRTPStreamId()] },
  });
  peers.push(pc);
  return pc;
}

/** A VP8 packet: payload descriptor (S=1, partition 0) and a payload header whose P bit says key or delta. */
export function vp8Packet(seq: number, timestamp: number, key: boolean, layer = 'x'): RtpPacket {
  const payload = Buffer.alloc(120, 0x55);
  payload[0] = 0x10;
  payload[1] = key ? 0x00 : 0x01;
  payload[2] = layer.charCodeAt(0);
  return new RtpPacket(new RtpHeader({ payloadType: 96, sequenceNumber: seq & 0xffff, timestamp: timestamp >>> 0, marker: true }), payload);
}
