// Writes the web app's PNG icons (public/static/icons/): the favicon's mark (a red disc, a white
// ring and dot, an amber spot) drawn pixel by pixel and packed with zlib, no image library.
// Run: node scripts/make-icons.mjs (the PNGs are committed; run it again only to change the art).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'static', 'icons');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) raw.set(pixel(x + 0.5, y + 0.5), y * (size * 4 + 1) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const RED = [0xb3, 0x00, 0x1b, 255];
const WHITE = [255, 255, 255, 255];
const AMBER = [0xff, 0xb3, 0x00, 255];
const CLEAR = [0, 0, 0, 0];

/** The favicon's 32-unit drawing at `size` pixels; `safe` shrinks the mark into the maskable safe zone (80 %) on a full red square. */
function mark(size, safe) {
  const s = size / 32;
  const scale = safe ? 0.72 : 1;
  return (px, py) => {
    // Coordinates in the favicon's 32-unit box, scaled about its centre.
    const x = (px / s - 16) / scale + 16;
    const y = (py / s - 16) / scale + 16;
    const d = (cx, cy) => Math.hypot(x - cx, y - cy);
    if (d(24.5, 7.5) <= 3) return AMBER;
    if (d(16, 16) <= 3.5) return WHITE;
    if (Math.abs(d(16, 16) - 8.5) <= 1.25) return WHITE;
    if (d(16, 16) <= 15 || safe) return RED;
    return CLEAR;
  };
}

mkdirSync(out, { recursive: true });
for (const size of [192, 512]) writeFileSync(join(out, `icon-${size}.png`), png(size, mark(size, false)));
writeFileSync(join(out, 'maskable-512.png'), png(512, mark(512, true)));
console.log(`Icons written to ${out}`);
