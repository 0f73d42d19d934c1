// Generated placeholder art for demo shows, videos and galleries. Abstract on purpose (gradients,
// blobs, bokeh, small icons, no figures) so the demo stays non-explicit and needs no image assets.
// Pure and deterministic: the same inputs always give the same bytes, which keeps responses cacheable.

import { mulberry32 } from '../../../shared/random';

export const ART_PALETTE_COUNT = 12;

export interface Palette {
  from: string;
  to: string;
  blobs: readonly [string, string, string];
}

// The first six echo the site layouts (redhot, greenhorn, black-white, blue-valvet, greyhound, pink).
const PALETTES: readonly Palette[] = [
  { from: '#2a0a12', to: '#8b1e2d', blobs: ['#ff4d5e', '#ff8a5b', '#c2185b'] },
  { from: '#0b2a1f', to: '#1f6f4a', blobs: ['#4ade80', '#a3e635', '#14b8a6'] },
  { from: '#0d0d0d', to: '#3a3a3a', blobs: ['#ffffff', '#9e9e9e', '#5c5c5c'] },
  { from: '#0a1230', to: '#1e3a8a', blobs: ['#3b82f6', '#60a5fa', '#6366f1'] },
  { from: '#1f2429', to: '#4b5563', blobs: ['#94a3b8', '#cbd5e1', '#64748b'] },
  { from: '#3b0a2a', to: '#be185d', blobs: ['#f472b6', '#fb7185', '#e879f9'] },
  { from: '#2d1b3d', to: '#f97316', blobs: ['#fb923c', '#facc15', '#ef4444'] },
  { from: '#042f2e', to: '#0f766e', blobs: ['#2dd4bf', '#22d3ee', '#a7f3d0'] },
  { from: '#1e1036', to: '#6d28d9', blobs: ['#a78bfa', '#c084fc', '#f0abfc'] },
  { from: '#1c1405', to: '#a16207', blobs: ['#fbbf24', '#fde68a', '#f59e0b'] },
  { from: '#0c1b33', to: '#0e7490', blobs: ['#fb7185', '#38bdf8', '#fda4af'] },
  { from: '#1a2a3a', to: '#5b6ee1', blobs: ['#86efac', '#c4b5fd', '#67e8f9'] },
];

function hash(...values: number[]): number {
  let h = 2166136261;
  for (const v of values) {
    h = Math.imul(h ^ (v | 0), 16777619);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

function int(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** Palette `index` (any integer, wrapped): also the colours of the generated demo clips. */
export function paletteAt(index: number): Palette {
  const i = Number.isFinite(index) ? Math.floor(index) : 0;
  return PALETTES[((i % ART_PALETTE_COUNT) + ART_PALETTE_COUNT) % ART_PALETTE_COUNT];
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const r0 = (n: number) => Math.round(n);
// Two decimals without the leading zero: every byte counts towards the 3 KB budget.
const r2 = (n: number) => String(Math.round(n * 100) / 100).replace(/^(-?)0\./, '$1.');

type Motif = (x: number, y: number, s: string, rot: number) => string;

// Icons are drawn in a ~40 unit box around the origin and scaled into place.
const MOTIFS: readonly Motif[] = [
  // heart
  (x, y, s, rot) => `<path transform="translate(${x} ${y}) rotate(${rot}) scale(${s})" d="M0 -6C-4-16-20-14-20-2C-20 8-8 14 0 20C8 14 20 8 20-2C20-14 4-16 0-6Z" fill="#fff" fill-opacity=".2"/>`,
  // star
  (x, y, s, rot) => `<path transform="translate(${x} ${y}) rotate(${rot}) scale(${s})" d="M0-20L5.9-8.1L19-6.2L9.5 3.1L11.8 16.2L0 10L-11.8 16.2L-9.5 3.1L-19-6.2L-5.9-8.1Z" fill="#fff" fill-opacity=".2"/>`,
  // camera
  (x, y, s, rot) => `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${s})" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="3"><rect x="-22" y="-13" width="32" height="26" rx="6"/><path d="M10-5L22-12V12L10 5"/><circle cx="-6" r="6"/></g>`,
  // sparkle
  (x, y, s, rot) => `<path transform="translate(${x} ${y}) rotate(${rot}) scale(${s})" d="M0-20Q2-2 20 0Q2 2 0 20Q-2 2-20 0Q-2-2 0-20Z" fill="#fff" fill-opacity=".3"/>`,
  // "live" signal rings
  (x, y, s) => `<g transform="translate(${x} ${y}) scale(${s})" fill="none" stroke="#fff" stroke-opacity=".3" stroke-width="2.5"><circle r="5" fill="#fff"/><circle r="12"/><circle r="19"/></g>`,
];

interface Scene {
  seed: number;
  palette: number;
  width: number;
  height: number;
  overlay: (w: number, h: number, rnd: () => number) => string;
  label?: string;
}

/** What a picture is made of, in pixels: drawn as SVG here, as pixels by raster.ts. */
export interface SceneGeometry {
  palette: Palette;
  /** The background's linear gradient runs from (angle, 0) to (1 - angle, 1) of the box. */
  angle: number;
  blobs: { cx: number; cy: number; rx: number; ry: number; color: string }[];
  /** The wave: from (0, y0) curving through (0.3w, yc) to (0.6w, y1), then on to (w, y2). */
  wave: { y0: number; yc: number; y1: number; y2: number; color: string };
  lights: { cx: number; cy: number; r: number; opacity: number }[];
}

/** The scene's shapes; `rnd` is left where the overlay continues. */
export function geometry(palette: number, w: number, h: number, rnd: () => number): SceneGeometry {
  const p = paletteAt(palette);
  const m = Math.min(w, h);
  const angle = rnd();
  const blobs = p.blobs.map((color) => {
    const rx = m * (0.35 + rnd() * 0.35);
    const cx = r0(rnd() * w);
    const cy = r0(rnd() * h);
    return { cx, cy, rx: r0(rx), ry: r0(rx * (0.7 + rnd() * 0.5)), color };
  });
  const waveY = h * (0.62 + rnd() * 0.15);
  const wave = { y0: r0(waveY), yc: r0(waveY - h * (0.1 + rnd() * 0.15)), y1: r0(waveY + h * 0.03), y2: r0(waveY - h * 0.05), color: p.blobs[1] };
  const count = 5 + Math.floor(rnd() * 4);
  const lights = Array.from({ length: count }, () => {
    const cx = r0(rnd() * w);
    const cy = r0(rnd() * h * 0.8);
    const r = r0(m * (0.02 + rnd() * 0.1));
    return { cx, cy, r, opacity: Math.round((0.35 + rnd() * 0.5) * 100) / 100 };
  });
  return { palette: p, angle, blobs, wave, lights };
}

function render(scene: Scene): string {
  const { width: w, height: h } = scene;
  const rnd = mulberry32(scene.seed);
  const g = geometry(scene.palette, w, h, rnd);
  const p = g.palette;
  // Ids are unique per picture so several SVGs can be inlined in one document without clashing.
  const id = `a${(scene.seed % 1679616).toString(36)}`;

  const defs = [
    `<linearGradient id="${id}g" x1="${r2(g.angle)}" y1="0" x2="${r2(1 - g.angle)}" y2="1"><stop offset="0" stop-color="${p.from}"/><stop offset="1" stop-color="${p.to}"/></linearGradient>`,
    ...p.blobs.map((c, i) => `<radialGradient id="${id}${i}"><stop offset="0" stop-color="${c}" stop-opacity=".85"/><stop offset="1" stop-color="${c}" stop-opacity="0"/></radialGradient>`),
    `<radialGradient id="${id}b"><stop offset="0" stop-color="#fff" stop-opacity=".7"/><stop offset=".6" stop-color="#fff" stop-opacity=".15"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="${id}v" cx=".5" cy=".45" r=".75"><stop offset=".55" stop-opacity="0"/><stop offset="1" stop-opacity=".45"/></radialGradient>`,
  ];

  const body: string[] = [`<rect width="${w}" height="${h}" fill="url(#${id}g)"/>`];
  g.blobs.forEach((b, i) => body.push(`<ellipse cx="${b.cx}" cy="${b.cy}" rx="${b.rx}" ry="${b.ry}" fill="url(#${id}${i})"/>`));
  const v = g.wave;
  body.push(`<path d="M0 ${v.y0}Q${r0(w * 0.3)} ${v.yc} ${r0(w * 0.6)} ${v.y1}T${w} ${v.y2}V${h}H0Z" fill="${v.color}" fill-opacity=".18"/>`);
  body.push(`<g fill="url(#${id}b)">`);
  for (const l of g.lights) body.push(`<circle cx="${l.cx}" cy="${l.cy}" r="${l.r}" opacity="${r2(l.opacity)}"/>`);
  body.push('</g>');
  body.push(scene.overlay(w, h, rnd));
  body.push(`<rect width="${w}" height="${h}" fill="url(#${id}v)"/>`);
  if (scene.label) {
    const size = Math.max(10, r0(h / 20));
    const text = escapeXml(scene.label.length > 48 ? `${scene.label.slice(0, 47)}…` : scene.label);
    body.push(
      `<text x="${r0(size * 0.9)}" y="${h - r0(size * 0.9)}" font-family="system-ui,sans-serif" font-size="${size}" fill="#fff" fill-opacity=".9" stroke="#000" stroke-opacity=".3" stroke-width="2" paint-order="stroke">${text}</text>`,
    );
  }

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><defs>${defs.join('')}</defs>${body.join('')}</svg>`;
}

/** The seed of show `showId`'s preview `index` (the SVG here and the pixels of raster.ts). */
export const showSeed = (showId: number, index: number, palette: number) => hash(1, showId, index, palette);

/** Preview picture `index` of show `showId`; the palette keeps one show's previews visually related. */
export function showArt(opts: { showId: number; index: number; palette: number; width?: number; height?: number; label?: string }): string {
  const width = int(opts.width, 400, 16, 4096);
  const height = int(opts.height, 300, 16, 4096);
  return render({
    seed: showSeed(opts.showId, opts.index, opts.palette),
    palette: opts.palette,
    width,
    height,
    label: opts.label,
    overlay: (w, h, rnd) => {
      const motif = MOTIFS[Math.floor(rnd() * MOTIFS.length)];
      const s = r2((Math.min(w, h) / 300) * (1.3 + rnd() * 1.1));
      // Keep the icon off-centre so it reads as decoration, not as the subject.
      const x = r0(w * (rnd() < 0.5 ? 0.2 + rnd() * 0.15 : 0.65 + rnd() * 0.15));
      const y = r0(h * (0.25 + rnd() * 0.35));
      return motif(x, y, s, r0(rnd() * 40 - 20));
    },
  });
}

/** 16:9 cover for a video (play button) or a picture gallery (stacked frames). */
export function mediaArt(opts: { kind: 'video' | 'gallery'; id: number; palette: number }): string {
  const video = opts.kind === 'video';
  return render({
    seed: hash(video ? 2 : 3, opts.id, opts.palette),
    palette: opts.palette,
    width: 480,
    height: 270,
    overlay: (w, h) => {
      const cx = r0(w / 2);
      const cy = r0(h / 2);
      if (video) {
        const r = r0(h * 0.16);
        const t = r * 0.45;
        return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#000" fill-opacity=".25" stroke="#fff" stroke-opacity=".6" stroke-width="3"/><path d="M${r0(cx - t * 0.7)} ${r0(cy - t)}L${r0(cx + t)} ${cy}L${r0(cx - t * 0.7)} ${r0(cy + t)}Z" fill="#fff" fill-opacity=".85"/>`;
      }
      const fw = r0(h * 0.5);
      const fh = r0(h * 0.38);
      const frame = (rot: number, dx: number, op: number) =>
        `<rect x="${-fw / 2}" y="${-fh / 2}" width="${fw}" height="${fh}" rx="8" transform="translate(${cx + dx} ${cy}) rotate(${rot})" fill="#fff" fill-opacity="${op}" stroke="#fff" stroke-opacity=".55" stroke-width="2"/>`;
      // Front frame carries a tiny landscape glyph (sun and hills) to read as "photos".
      const left = cx - fw / 2;
      const bottom = cy + fh / 2;
      return `${frame(-9, -14, 0.08)}${frame(7, 14, 0.12)}${frame(0, 0, 0.18)}<circle cx="${r0(left + fw * 0.3)}" cy="${r0(cy - fh * 0.15)}" r="${r0(fh * 0.1)}" fill="#fff" fill-opacity=".7"/><path d="M${r0(left + 6)} ${r0(bottom - 6)}L${r0(left + fw * 0.4)} ${r0(cy + fh * 0.05)}L${r0(left + fw * 0.6)} ${r0(cy + fh * 0.22)}L${r0(left + fw * 0.75)} ${r0(cy + fh * 0.1)}L${r0(left + fw - 6)} ${r0(bottom - 6)}Z" fill="#fff" fill-opacity=".5"/>`;
    },
  });
}

/**
 * Demo gallery picture `idx` of palette `palette` (the R2 objects demoPictureKey names), in the
 * full (1200x800) or thumbnail (360x240) size: the same scene at both sizes, one motif large.
 */
export function pictureArt(opts: { palette: number; idx: number; width: number; height: number }): string {
  return render({
    seed: hash(4, opts.palette, opts.idx),
    palette: opts.palette,
    width: int(opts.width, 1200, 16, 4096),
    height: int(opts.height, 800, 16, 4096),
    label: `#${opts.idx}`,
    overlay: (w, h, rnd) => {
      const motif = MOTIFS[Math.floor(rnd() * MOTIFS.length)];
      return motif(r0(w * (0.3 + rnd() * 0.4)), r0(h * (0.35 + rnd() * 0.25)), r2((Math.min(w, h) / 160) * (1 + rnd() * 0.6)), r0(rnd() * 40 - 20));
    },
  });
}
