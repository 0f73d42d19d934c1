import type { SimulcastRid, VideoLayer, VideoSignal } from '../../../shared/video';
import { appStore } from '../../state/app-store';
import { LayerAuto, screenCap, type ReceiveSample } from './layers';

// A viewer's quality (issue 28 point 2): Auto, or a layer picked by hand (High f, Medium h, Low q).
// Through the SFU, Auto starts at the best layer that fits the picture on this screen and moves
// down and up from the viewer's own receive statistics (layers.ts LayerAuto), one `layer` signal
// per change; a hand pick holds until the viewer picks again. Peer to peer the pick goes to the
// performer's browser, which scales that connection (Auto: the browser's own bandwidth estimate).

const rx = () => appStore().receiver;
const SCALE: Record<SimulcastRid, number> = { f: 1, h: 2, q: 4 };

let send: ((data: VideoSignal) => void) | null = null;
let auto: LayerAuto | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let last: { packetsReceived: number; packetsLost: number; framesDecoded: number; framesDropped: number; freezes: number } | null = null;

/** The viewer picks a quality: told to the SFU or the performer's browser at once. */
export function pickQuality(q: VideoLayer): void {
  rx().quality = q;
  if (!send) return;
  send({ kind: 'layer', rid: q === 'auto' ? (auto?.current ?? 'auto') : q });
  if (q !== 'auto') rx().layer = q;
}

/** A connection is up: through the SFU (`relay`) Auto runs on its statistics every second. */
export function watchLayers(pc: RTCPeerConnection, relay: boolean, signal: (data: VideoSignal) => void): void {
  stopLayers();
  send = signal;
  const q = rx().quality;
  rx().layer = q === 'auto' ? 'f' : q;
  // A pick made before (or on an earlier connection) holds on this one.
  if (q !== 'auto') signal({ kind: 'layer', rid: q });
  if (!relay) return;
  // Never below the lowest layer the publication sends (asking for one it does not would only cost an up step later).
  const sent = rx().layers;
  auto = new LayerAuto('f', 'f', sent.length ? sent[sent.length - 1] : 'f');
  timer = setInterval(() => void sample(pc), 1_000);
}

export function stopLayers(): void {
  if (timer) clearInterval(timer);
  timer = null;
  auto = null;
  last = null;
  send = null;
}

async function sample(pc: RTCPeerConnection): Promise<void> {
  const found: { now: NonNullable<typeof last> | null; width: number } = { now: null, width: 0 };
  (await pc.getStats()).forEach((s: { type: string; kind?: string; packetsReceived?: number; packetsLost?: number; framesDecoded?: number; framesDropped?: number; freezeCount?: number; frameWidth?: number }) => {
    if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
    found.now = { packetsReceived: s.packetsReceived ?? 0, packetsLost: s.packetsLost ?? 0, framesDecoded: s.framesDecoded ?? 0, framesDropped: s.framesDropped ?? 0, freezes: s.freezeCount ?? 0 };
    found.width = s.frameWidth ?? 0;
  });
  const { now, width } = found;
  const prev = last;
  last = now;
  if (!auto || !now || !prev || rx().quality !== 'auto') return;
  const delta: ReceiveSample = {
    packetsReceived: now.packetsReceived - prev.packetsReceived,
    packetsLost: Math.max(0, now.packetsLost - prev.packetsLost),
    framesDecoded: now.framesDecoded - prev.framesDecoded,
    framesDropped: now.framesDropped - prev.framesDropped,
    freezes: now.freezes - prev.freezes,
  };
  // What the picture on this screen can show: the full layer's width from the one received.
  const el = document.querySelector<HTMLVideoElement>('[data-testid=live-video-el]');
  if (width && el) auto.cap = screenCap(width * SCALE[auto.current], el.clientWidth, window.devicePixelRatio || 1);
  const to = auto.next(delta);
  if (to && send) {
    rx().layer = to;
    send({ kind: 'layer', rid: to });
  }
}
