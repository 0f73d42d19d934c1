import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  useH264,
  useOPUS,
  useRepairedRtpStreamId,
  useSdesMid,
  useSdesRTPStreamId,
  useVP8,
  type MediaStreamTrack,
  type RTCRtpTransceiver,
} from 'werift';
import type { Forwarder, PacketListener, Simulcast, Source } from './forward';

// One session of the stand-in: one werift PeerConnection, as one Realtime SFU session is one
// PeerConnection with its endpoint. It keeps the session's local tracks (publications, fed by the
// endpoint's RTP) and remote tracks (pulls of other sessions' local tracks, fed by forwarders),
// the SFU-offer-pending flag, and the connection history that decides 425 and 410.

export function newPeer(): RTCPeerConnection {
  return new RTCPeerConnection({
    // No STUN: there is no network here, and the host candidates are what loopback tests use.
    iceServers: [],
    bundlePolicy: 'max-bundle',
    codecs: { audio: [useOPUS()], video: [useVP8(), useH264()] },
    headerExtensions: { audio: [useSdesMid()], video: [useSdesMid(), useSdesRTPStreamId(), useRepairedRtpStreamId()] },
  });
}

/** A publication: the endpoint's track on one m-section, with its simulcast layers. */
export class LocalTrack implements Source {
  readonly listeners = new Set<PacketListener>();
  readonly createdAt = Date.now();
  lastPacketAt: number | null = null;
  private readonly attached = new WeakSet<MediaStreamTrack>();
  private lastPli = new Map<string, number>();
  /**
   * The SSRC each layer's packets arrive with. A simulcast publisher's offer names RIDs, not
   * SSRCs, and werift's RID tracks never learn theirs (their `ssrc` stays undefined), so a PLI for
   * a layer has to go to the SSRC seen on its packets.
   */
  private readonly ssrcByRid = new Map<string, number>();

  constructor(
    readonly trackName: string,
    readonly mid: string,
    readonly kind: 'audio' | 'video',
    readonly layers: string[],
    readonly transceiver: RTCRtpTransceiver,
    private readonly received: (rid: string) => void,
  ) {
    for (const track of transceiver.receiver.tracks) this.attach(track);
    this.attach(transceiver.receiver.track);
    transceiver.onTrack.subscribe((track) => this.attach(track));
  }

  mimeType = (): string => this.transceiver.codecs[0]?.mimeType ?? '';

  /** The codec the viewers are offered: the publisher's, same payload type (no transcoding). */
  viewerCodec(): RTCRtpCodecParameters | undefined {
    const c = this.transceiver.codecs[0];
    if (!c) return undefined;
    const rtcpFeedback = c.rtcpFeedback.filter((f) => ['nack', 'ccm', 'goog-remb'].includes(f.type));
    return new RTCRtpCodecParameters({ ...c, rtcpFeedback, direction: 'all' });
  }

  requestKeyframe(rid: string): void {
    // Debounced as the SFU does: several viewers joining at once make one PLI.
    if (Date.now() - (this.lastPli.get(rid) ?? 0) < 200) return;
    const receiver = this.transceiver.receiver;
    // Without RID the offer's a=ssrc is known before any packet; a layer's only from its packets
    // (none yet: the forwarder asks again on the layer's next packet).
    const ssrc = this.ssrcByRid.get(rid) ?? (rid ? undefined : receiver.track.ssrc);
    if (ssrc === undefined) return;
    this.lastPli.set(rid, Date.now());
    receiver.sendRtcpPLI(ssrc).catch(() => undefined);
  }

  /** Closed or collected: its viewers stop receiving. */
  close(): void {
    this.listeners.clear();
  }

  private attach(track: MediaStreamTrack): void {
    if (this.attached.has(track)) return;
    this.attached.add(track);
    track.onReceiveRtp.subscribe((rtp) => {
      const rid = track.rid ?? '';
      this.ssrcByRid.set(rid, rtp.header.ssrc);
      this.lastPacketAt = Date.now();
      this.received(rid);
      for (const listen of this.listeners) listen(rid, rtp);
    });
  }
}

export interface RemoteTrack {
  mid: string;
  trackName: string;
  /** The publisher's session. */
  sessionId: string;
  forwarder: Forwarder;
  simulcast?: Simulcast;
}

export interface Timing {
  reuseWindowMs: number;
  connectWaitMs: number;
  mediaTimeoutMs: number;
}

export class Session {
  readonly pc = newPeer();
  readonly local = new Map<string, LocalTrack>();
  readonly remote = new Map<string, RemoteTrack>();
  /** The SFU made an offer (requiresImmediateRenegotiation) that no renegotiate answered yet. */
  pendingOffer = false;
  /** Setup is done: an answer was given to the endpoint or taken from it. */
  negotiated = false;
  killed = false;
  private disconnectedAt: number | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private running = 0;

  constructor(
    readonly id: string,
    private readonly timing: () => Timing,
  ) {
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') this.disconnectedAt = null;
      else if (state === 'disconnected' || state === 'failed' || state === 'closed') this.disconnectedAt ??= Date.now();
    });
  }

  get connected(): boolean {
    return !this.killed && this.pc.connectionState === 'connected';
  }

  /** Disconnected past the reuse window (or killed): every later call is a 410. */
  get dead(): boolean {
    return this.killed || (this.disconnectedAt !== null && Date.now() - this.disconnectedAt >= this.timing().reuseWindowMs);
  }

  /** Mutations of one session run one after another; `overlap` hears of any that had to wait. */
  serial<T>(work: () => Promise<T>, overlap: () => void): Promise<T> {
    if (this.running > 0) overlap();
    this.running++;
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined).finally(() => this.running--);
    return next;
  }

  /** Waits for the PeerConnection (the SFU waits up to 5 s): true once connected. */
  async waitConnected(): Promise<boolean> {
    const until = Date.now() + this.timing().connectWaitMs;
    while (!this.connected && !this.dead && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return this.connected;
  }

  /** A local track by name, unless its media stopped longer than the media timeout (collected). */
  findLocal(trackName: string): LocalTrack | undefined {
    this.collect();
    return [...this.local.values()].find((t) => t.trackName === trackName);
  }

  collect(): void {
    const timeout = this.timing().mediaTimeoutMs;
    for (const [mid, t] of this.local) {
      if (this.dead || Date.now() - (t.lastPacketAt ?? t.createdAt) >= timeout) {
        t.close();
        this.local.delete(mid);
      }
    }
  }

  kill(): void {
    this.killed = true;
    this.collect();
    for (const r of this.remote.values()) r.forwarder.close();
    this.pc.close().catch(() => undefined);
  }
}
