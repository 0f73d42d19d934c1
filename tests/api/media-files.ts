// Small but well-formed video files for the upload tests: the server checks the container (EBML
// header with DocType webm, a Segment with Info, Tracks and a Cluster; an MP4 ftyp with a known
// brand, moov with mvhd, mdat), not only the first bytes.

const concat = (...parts: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** An EBML element with an 8-byte size. */
function el(id: number[], ...data: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> {
  const body = concat(...data);
  const size = [0x01, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 7, n = body.length; i >= 1; i--, n = Math.floor(n / 256)) size[i] = n & 0xff;
  return concat(id, size, body);
}

const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));
const UNKNOWN = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];

/** A filler pattern (so a mix-up of chunks shows). */
const filler = (size: number, seed: number) => Uint8Array.from({ length: Math.max(0, size) }, (_, i) => (i * 31 + seed) & 0xff);

export const WEBM_HEADER = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x86], [1]), el([0x42, 0x82], ascii('webm')), el([0x42, 0x87], [4]), el([0x42, 0x85], [2]));
const INFO = el([0x15, 0x49, 0xa9, 0x66], el([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]));
const TRACKS = el([0x16, 0x54, 0xae, 0x6b], el([0xae], el([0xd7], [1]), el([0x83], [1]), el([0x86], ascii('V_VP8'))));

/**
 * A WebM file of exactly `size` bytes: header, a Segment of unknown size (as MediaRecorder writes
 * it) or of its known size, Info, Tracks and a Cluster whose frames are filler.
 */
export function webmFile(size: number, seed = 1, { knownSize = false } = {}): Uint8Array<ArrayBuffer> {
  const cluster = (rest: number) => concat([0x1f, 0x43, 0xb6, 0x75], UNKNOWN, el([0xe7], [0]), filler(rest, seed));
  const fixed = WEBM_HEADER.length + 12 + INFO.length + TRACKS.length + cluster(0).length;
  const body = concat(INFO, TRACKS, cluster(size - fixed));
  if (!knownSize) return concat(WEBM_HEADER, [0x18, 0x53, 0x80, 0x67], UNKNOWN, body);
  return concat(WEBM_HEADER, el([0x18, 0x53, 0x80, 0x67], body));
}

function box(type: string, ...data: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> {
  const body = concat(...data);
  const n = body.length + 8;
  return concat([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], ascii(type), body);
}

/** An MP4 file of exactly `size` bytes: ftyp (the first brand major, all compatible), moov with its mvhd first, and an mdat of filler. */
export function mp4File(size: number, seed = 1, brands = ['isom', 'mp41']): Uint8Array<ArrayBuffer> {
  const head = concat(box('ftyp', ascii(brands[0]), [0, 0, 2, 0], ...brands.map(ascii)), box('moov', box('mvhd', new Uint8Array(100))));
  return concat(head, box('mdat', filler(size - head.length - 8, seed)));
}

/** A PNG of exactly `size` bytes (at least 57): signature, IHDR, an IDAT of filler, IEND (CRCs not checked). */
export function pngFile(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Uint8Array | number[]) => {
    const n = data.length;
    return concat([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], ascii(type), data, [0, 0, 0, 0]);
  };
  const ihdr = chunk('IHDR', [0, 0, 0, 4, 0, 0, 0, 3, 8, 2, 0, 0, 0]);
  const end = concat([0, 0, 0, 0], ascii('IEND'), [0xae, 0x42, 0x60, 0x82]);
  return concat([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], ihdr, chunk('IDAT', filler(size - 8 - ihdr.length - 12 - end.length, seed)), end);
}

/** A JPEG of exactly `size` bytes (at least 29): SOI, a frame header, a scan of filler, EOI. */
export function jpegFile(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const sof = [0xff, 0xc0, 0, 11, 8, 0, 3, 0, 4, 1, 1, 0x11, 0];
  const sos = [0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0];
  return concat([0xff, 0xd8], sof, sos, filler(size - 2 - sof.length - sos.length - 2, seed).map((x) => (x === 0xff ? 0 : x)), [0xff, 0xd9]);
}
