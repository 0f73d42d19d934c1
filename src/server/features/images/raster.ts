// The show previews as pixels (a JPEG, lib/jpeg.ts): the same scene as the SVG of art.ts (its
// geometry, from the same seed), so a tile's picture is decoded off the browser's main thread like
// a performer's real photo, instead of being a document of its own painted on the main thread.
// The overlay icon is drawn as the "live" rings only; the vignette and the light are as in the SVG.

import { mulberry32 } from '../../../shared/random';
import { encodeJpeg } from '../../lib/jpeg';
import { geometry, showSeed } from './art';

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

class Canvas {
  readonly px: Float32Array;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.px = new Float32Array(w * h * 3);
  }
  blend(x: number, y: number, c: Rgb, a: number): void {
    if (a <= 0) return;
    const i = (y * this.w + x) * 3;
    const p = this.px;
    p[i] += (c[0] - p[i]) * a;
    p[i + 1] += (c[1] - p[i + 1]) * a;
    p[i + 2] += (c[2] - p[i + 2]) * a;
  }
  /** Every pixel of the box around (cx, cy) whose centre is within the ellipse, with its distance (0 centre, 1 edge). */
  ellipse(cx: number, cy: number, rx: number, ry: number, paint: (x: number, y: number, d: number) => void): void {
    const x0 = Math.max(0, Math.floor(cx - rx));
    const x1 = Math.min(this.w - 1, Math.ceil(cx + rx));
    const y0 = Math.max(0, Math.floor(cy - ry));
    const y1 = Math.min(this.h - 1, Math.ceil(cy + ry));
    for (let y = y0; y <= y1; y++) {
      const dy = (y + 0.5 - cy) / ry;
      for (let x = x0; x <= x1; x++) {
        const dx = (x + 0.5 - cx) / rx;
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d < 1) paint(x, y, d);
      }
    }
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.px.length);
    for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(this.px[i])));
    return out;
  }
}

/** A quadratic Bézier from p0 over c to p1, sampled into `ys` (the curve's y at each column). */
function quad(ys: Float32Array, p0: [number, number], c: [number, number], p1: [number, number]): void {
  for (let i = 0; i <= 256; i++) {
    const t = i / 256;
    const u = 1 - t;
    const x = u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0];
    const y = u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1];
    const col = Math.min(ys.length - 1, Math.max(0, Math.floor(x)));
    ys[col] = y;
  }
}

/** Preview picture `index` of show `showId` as RGB pixels (width·height·3). */
export function showPixels(opts: { showId: number; index: number; palette: number; width: number; height: number }): Uint8Array {
  const { width: w, height: h } = opts;
  const rnd = mulberry32(showSeed(opts.showId, opts.index, opts.palette));
  const g = geometry(opts.palette, w, h, rnd);
  const c = new Canvas(w, h);

  // Background: the linear gradient over the box (objectBoundingBox, like the SVG's).
  const from = rgbOf(g.palette.from);
  const to = rgbOf(g.palette.to);
  const dx = 1 - 2 * g.angle;
  const len = dx * dx + 1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const t = Math.max(0, Math.min(1, (((x + 0.5) / w - g.angle) * dx + (y + 0.5) / h) / len));
      const i = (y * w + x) * 3;
      c.px[i] = from[0] + (to[0] - from[0]) * t;
      c.px[i + 1] = from[1] + (to[1] - from[1]) * t;
      c.px[i + 2] = from[2] + (to[2] - from[2]) * t;
    }
  for (const b of g.blobs) {
    const col = rgbOf(b.color);
    c.ellipse(b.cx, b.cy, b.rx, b.ry, (x, y, d) => c.blend(x, y, col, 0.85 * (1 - d)));
  }

  // The wave: everything below the curve, its edge pixel by the covered share.
  const ys = new Float32Array(w).fill(Number.NaN);
  const v = g.wave;
  const ctrl: [number, number] = [w * 0.3, v.yc];
  const mid: [number, number] = [w * 0.6, v.y1];
  quad(ys, [0, v.y0], ctrl, mid);
  quad(ys, mid, [2 * mid[0] - ctrl[0], 2 * mid[1] - ctrl[1]], [w, v.y2]);
  let last = v.y0;
  const wave = rgbOf(v.color);
  for (let x = 0; x < w; x++) {
    const top = Number.isNaN(ys[x]) ? last : ys[x];
    last = top;
    for (let y = Math.max(0, Math.floor(top)); y < h; y++) c.blend(x, y, wave, 0.18 * Math.min(1, y + 1 - top));
  }

  const white: Rgb = [255, 255, 255];
  for (const l of g.lights) {
    // The light's radial gradient: .7 at the centre, .15 at 60 %, 0 at the edge.
    c.ellipse(l.cx, l.cy, l.r, l.r, (x, y, d) => c.blend(x, y, white, l.opacity * (d < 0.6 ? 0.7 - (0.55 * d) / 0.6 : (0.15 * (1 - d)) / 0.4)));
  }

  // The overlay's place and size (the same draws as art.ts's showArt), drawn as the "live" rings.
  rnd();
  const s = (Math.min(w, h) / 300) * (1.3 + rnd() * 1.1);
  const mx = w * (rnd() < 0.5 ? 0.2 + rnd() * 0.15 : 0.65 + rnd() * 0.15);
  const my = h * (0.25 + rnd() * 0.35);
  const half = 1.25 * s;
  c.ellipse(mx, my, 21 * s, 21 * s, (x, y, d) => {
    const r = d * 21 * s;
    const ring = Math.min(Math.abs(r - 5 * s), Math.abs(r - 12 * s), Math.abs(r - 19 * s));
    if (r < 5 * s) c.blend(x, y, white, 0.9);
    else if (ring < half) c.blend(x, y, white, 0.3 * Math.min(1, half - ring));
  });

  // The vignette: dark towards the corners (centre at 50 % / 45 %, radius 75 % of the box).
  const black: Rgb = [0, 0, 0];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const ex = (x + 0.5 - 0.5 * w) / (0.75 * w);
      const ey = (y + 0.5 - 0.45 * h) / (0.75 * h);
      const t = Math.sqrt(ex * ex + ey * ey);
      if (t > 0.55) c.blend(x, y, black, t >= 1 ? 0.45 : (0.45 * (t - 0.55)) / 0.45);
    }
  return c.bytes();
}

/** The preview as a JPEG, 400x300 (`large`: 800x600), drawn from its id alone (images.routes.ts keeps them). */
export function showJpeg(opts: { showId: number; index: number; palette: number; large?: boolean }): Uint8Array<ArrayBuffer> {
  const width = opts.large ? 800 : 400;
  const height = opts.large ? 600 : 300;
  return encodeJpeg(showPixels({ ...opts, width, height }), width, height, 78);
}
