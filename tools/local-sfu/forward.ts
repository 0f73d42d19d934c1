import { RtpHeader, RtpPacket, type RTCRtpSender } from 'werift';

// One viewer's copy of one publisher track. werift hands every subscriber of a track the same
// packet object and `sendRtp` rewrites its header in place, so each forwarder builds its own
// packet: a fresh header without the publisher's header extensions (the viewer's sender adds its
// own mid under the viewer session's ids), and sequence numbers and timestamps of its own that
// run on across layer switches. A switch waits for a keyframe of the new layer, asked for with a
// PLI; a PLI from the viewer is passed up to the publisher.

export type PacketListener = (rid: string, rtp: RtpPacket) => void;

/** What a forwarder needs of a publisher's track (session.ts). `''` is the layer without RID. */
export interface Source {
  readonly kind: 'audio' | 'video';
  readonly mimeType: () => string;
  /** The layers the publisher's offer declared (RIDs in its order), or `['']`. */
  readonly layers: string[];
  readonly listeners: Set<PacketListener>;
  requestKeyframe(rid: string): void;
}

export interface Simulcast {
  preferredRid?: string;
  priorityOrdering?: 'none' | 'asciibetical';
  ridNotAvailable?: 'none' | 'asciibetical';
}

export interface ForwardHooks {
  forwarded(rid: string): void;
  /** Percent of packets to drop on the way to this viewer (the `/_control` knob). */
  dropPercent(): number;
  /** The viewer's transport is up: before that a keyframe would be lost, so none is waited for. */
  ready(): boolean;
}

const KEYFRAME_ASK_MS = 250;

export class Forwarder {
  /** The layer whose packets go out now; null until its first keyframe. */
  private current: string | null = null;
  private target: string | null;
  private seqOffset = 0;
  private tsOffset = 0;
  private last: { seq: number; ts: number; at: number } | null = null;
  private askedAt = 0;
  private closed = false;
  private readonly listener: PacketListener = (rid, rtp) => this.onPacket(rid, rtp);
  private readonly stopPli: () => void;

  constructor(
    private readonly source: Source,
    private readonly sender: RTCRtpSender,
    private readonly hooks: ForwardHooks,
    simulcast?: Simulcast,
  ) {
    this.target = chooseLayer(source.layers, simulcast);
    source.listeners.add(this.listener);
    this.stopPli = sender.onPictureLossIndication.subscribe(() => this.askKeyframe(true)).unSubscribe;
    this.askKeyframe(true);
  }

  get layer(): string | null {
    return this.current ?? this.target;
  }

  /** tracks/update: false when the source does not send the preferred layer. */
  update(simulcast: Simulcast): boolean {
    if (!simulcast.preferredRid || !this.source.layers.includes(simulcast.preferredRid)) return false;
    this.target = chooseLayer(this.source.layers, simulcast);
    if (this.target !== this.current) this.askKeyframe(true);
    return true;
  }

  close(): void {
    this.closed = true;
    this.source.listeners.delete(this.listener);
    this.stopPli();
  }

  private onPacket(rid: string, rtp: RtpPacket): void {
    if (this.closed || rtp.payload.length === 0 || !this.hooks.ready()) return;
    if (rid === this.target && this.target !== this.current) {
      if (!this.keyframe(rtp)) {
        this.askKeyframe(false);
        return;
      }
      this.current = rid;
      this.startSegment(rtp);
    }
    if (rid !== this.current) return;
    if (Math.random() * 100 < this.hooks.dropPercent()) return;
    const seq = (rtp.header.sequenceNumber + this.seqOffset) & 0xffff;
    const ts = (rtp.header.timestamp + this.tsOffset) >>> 0;
    if (!this.last || ((seq - this.last.seq) & 0xffff) < 0x8000) this.last = { seq, ts, at: Date.now() };
    const header = new RtpHeader({ marker: rtp.header.marker, payloadType: rtp.header.payloadType, sequenceNumber: seq, timestamp: ts, extensions: [] });
    this.hooks.forwarded(rid);
    this.sender.sendRtp(new RtpPacket(header, Buffer.from(rtp.payload))).catch(() => undefined);
  }

  /** The first packet of a layer: continue the viewer's numbering where the last layer stopped. */
  private startSegment(rtp: RtpPacket): void {
    if (!this.last) return;
    const clock = this.source.kind === 'audio' ? 48 : 90;
    const gap = Math.max(1, Math.round((Date.now() - this.last.at) * clock));
    this.seqOffset = (this.last.seq + 1 - rtp.header.sequenceNumber) & 0xffff;
    this.tsOffset = (this.last.ts + gap - rtp.header.timestamp) >>> 0;
  }

  private askKeyframe(now: boolean): void {
    const rid = this.target ?? this.current;
    if (rid === null || this.source.kind !== 'video') return;
    if (!now && Date.now() - this.askedAt < KEYFRAME_ASK_MS) return;
    this.askedAt = Date.now();
    this.source.requestKeyframe(rid);
  }

  private keyframe(rtp: RtpPacket): boolean {
    if (this.source.kind === 'audio') return true;
    const mime = this.source.mimeType().toLowerCase();
    if (mime === 'video/vp8') return vp8KeyframeStart(rtp.payload);
    if (mime === 'video/h264') return h264KeyframeStart(rtp.payload);
    return true;
  }
}

/** The layer a pull asks for: the preferred RID, else by the ridNotAvailable policy. */
export function chooseLayer(layers: string[], simulcast?: Simulcast): string | null {
  const rids = layers.filter((l) => l !== '');
  if (rids.length === 0) return layers[0] ?? '';
  const ordered = simulcast?.priorityOrdering === 'asciibetical' ? [...rids].sort() : rids;
  if (!simulcast?.preferredRid) return ordered[0];
  if (rids.includes(simulcast.preferredRid)) return simulcast.preferredRid;
  return simulcast.ridNotAvailable === 'asciibetical' ? [...rids].sort()[0] : null;
}

/**
 * The first packet of a VP8 key frame (RFC 7741): S=1 and partition 0, then, past the payload
 * descriptor, the payload header's P bit is 0. The descriptor is read per section 4.2 (werift's
 * Vp8RtpPayload skips the TID/KEYIDX byte on L or K where the RFC says T or K, which misreads a
 * descriptor with T but not L).
 */
export function vp8KeyframeStart(p: Buffer): boolean {
  if (p.length < 1) return false;
  const s = (p[0] & 0x10) !== 0;
  const pid = p[0] & 0x07;
  if (!s || pid !== 0) return false;
  let o = 1;
  if (p[0] & 0x80) {
    if (p.length < 2) return false;
    const x = p[o++];
    if (x & 0x80) o += o < p.length && p[o] & 0x80 ? 2 : 1; // I: PictureID, 15 bits when M
    if (x & 0x40) o += 1; // L: TL0PICIDX
    if (x & 0x30) o += 1; // T or K: TID|Y|KEYIDX
  }
  return o < p.length && (p[o] & 0x01) === 0;
}

/** An SPS (alone or first in a STAP-A) or the start of an IDR slice: where a decoder can begin. */
export function h264KeyframeStart(p: Buffer): boolean {
  const type = p[0] & 0x1f;
  if (type === 7 || type === 5) return true;
  if (type === 24 && p.length > 3) return [5, 7].includes(p[3] & 0x1f);
  if (type === 28 && p.length > 1) return (p[1] & 0x80) !== 0 && (p[1] & 0x1f) === 5;
  return false;
}
