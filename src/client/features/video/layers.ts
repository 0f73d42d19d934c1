import type { SimulcastRid } from '../../../shared/video';
import { PRESETS, type Preset } from './camera';

// Simulcast (issue 28 point 2): the studio's camera is encoded in up to three layers, f(ull),
// h(alf) and q(uarter) resolution, each with its own bitrate cap; a viewer receives one of them.
// Chromium sends at most 2 layers from 640x360 and 3 from 1280x720 (its simulcast format table):
// the layers a preset sends are those it can hold.

export interface Layer {
  rid: SimulcastRid;
  scaleResolutionDownBy: number;
  /** Share of the preset's bitrate. */
  share: number;
}

const ALL: Layer[] = [
  { rid: 'f', scaleResolutionDownBy: 1, share: 1 },
  { rid: 'h', scaleResolutionDownBy: 2, share: 0.3 },
  { rid: 'q', scaleResolutionDownBy: 4, share: 0.1 },
];

const COUNT: Record<Preset, number> = { low: 1, sd: 2, hd: 3 };

/** The layers a preset sends, best first. */
export function presetLayers(preset: Preset): Layer[] {
  return ALL.slice(0, COUNT[preset]);
}

/** The encodings of the studio's video sender to the SFU (one without a RID when the preset holds a single layer). */
export function layerEncodings(preset: Preset): RTCRtpEncodingParameters[] {
  const kbps = PRESETS[preset].kbps;
  const layers = presetLayers(preset);
  if (layers.length === 1) return [{ maxBitrate: kbps * 1000 }];
  return layers.map((l) => ({ rid: l.rid, scaleResolutionDownBy: l.scaleResolutionDownBy, maxBitrate: Math.round(kbps * l.share) * 1000, active: true }));
}

/** One connection's encoding for a viewer who picked a layer (peer to peer: the performer's browser scales for that viewer). */
export function p2pEncoding(preset: Preset, rid: SimulcastRid | 'auto'): { scaleResolutionDownBy: number; maxBitrate: number } {
  const l = ALL.find((x) => x.rid === rid) ?? ALL[0]!;
  return { scaleResolutionDownBy: l.scaleResolutionDownBy, maxBitrate: Math.round(PRESETS[preset].kbps * l.share) * 1000 };
}

/** The layer below and above (null at the end). */
export const lower = (rid: SimulcastRid): SimulcastRid | null => (rid === 'f' ? 'h' : rid === 'h' ? 'q' : null);
export const higher = (rid: SimulcastRid): SimulcastRid | null => (rid === 'q' ? 'h' : rid === 'h' ? 'f' : null);

/** One second of a viewer's receive statistics (deltas over that second). */
export interface ReceiveSample {
  packetsReceived: number;
  packetsLost: number;
  framesDecoded: number;
  framesDropped: number;
  /** Freezes the browser counted in that second. */
  freezes: number;
}

/** Below this share of lost packets, or with no frame dropped or frozen, a second is good. */
const BAD_LOSS = 0.04;
const GOOD_LOSS = 0.01;
/** Two bad seconds in a row: a layer down (within the 5 s the issue asks, a second to ask the SFU). */
const DOWN_AFTER = 2;
/**
 * Six good seconds in a row after the last change: a layer up (within 15 s of the network
 * recovering, whose first second back often still shows the freeze it ends). A step up that fails
 * within UP_HOLD seconds doubles the wait for the next one (up to UP_AFTER_MAX: a link that cannot
 * carry the layer does not flap); one that holds UP_HOLD seconds resets it.
 */
const UP_AFTER = 6;
const UP_AFTER_MAX = 48;
const UP_HOLD = 30;

/**
 * Auto quality for one viewer: down a layer after DOWN_AFTER bad seconds (loss, dropped frames, a
 * freeze, or under half the frame rate of its good seconds: a slow camera is not a bad network),
 * up after UP_AFTER good ones (more after a step up failed), never below `floor` (the lowest layer
 * sent) nor above `cap` (what the viewer's screen can show). `next` answers the layer to ask for
 * now, or null to stay.
 */
export class LayerAuto {
  private bad = 0;
  private good = 0;
  /** Frames per second of the good seconds (slowly forgotten). */
  private fps = 0;
  private upAfter = UP_AFTER;
  /** Seconds since the last step up (Infinity: none, or a step down since). */
  private sinceUp = Infinity;

  constructor(
    public current: SimulcastRid,
    public cap: SimulcastRid = 'f',
    /** The lowest layer the publication sends (an `sd` camera: `h`). */
    public floor: SimulcastRid = 'q',
  ) {}

  next(s: ReceiveSample): SimulcastRid | null {
    const sent = s.packetsReceived + s.packetsLost;
    const loss = sent > 0 ? s.packetsLost / sent : 0;
    const slow = this.fps >= 10 && s.framesDecoded < this.fps / 2;
    const isBad = loss > BAD_LOSS || s.framesDropped > 2 || s.freezes > 0 || slow;
    const isGood = loss < GOOD_LOSS && s.framesDropped === 0 && s.freezes === 0 && s.framesDecoded > 0 && !slow;
    if (isGood) this.fps = Math.max(s.framesDecoded, this.fps * 0.95);
    this.bad = isBad ? this.bad + 1 : 0;
    this.good = isGood ? this.good + 1 : 0;
    if (++this.sinceUp === UP_HOLD) this.upAfter = UP_AFTER;
    let to: SimulcastRid | null = null;
    if (this.current < this.cap) to = this.cap; // the screen got smaller than the layer
    else if (this.bad >= DOWN_AFTER && this.current < this.floor) to = lower(this.current);
    else if (this.good >= this.upAfter && this.current > this.cap) to = higher(this.current);
    if (!to || to === this.current) return null;
    if (to > this.current) {
      // Down ('f' < 'h' < 'q'): soon after a step up, that step failed.
      if (this.sinceUp < UP_HOLD) this.upAfter = Math.min(this.upAfter * 2, UP_AFTER_MAX);
      this.sinceUp = Infinity;
    } else this.sinceUp = 0;
    this.current = to;
    this.bad = 0;
    this.good = 0;
    return to;
  }
}

/** The best layer worth receiving for a picture `cssWidth` wide on this screen, given the full layer's width. */
export function screenCap(fullWidth: number, cssWidth: number, dpr: number): SimulcastRid {
  const px = cssWidth * dpr;
  if (!fullWidth || !px) return 'f';
  return px <= fullWidth / 4 ? 'q' : px <= fullWidth / 2 ? 'h' : 'f';
}
