// A baseline JPEG encoder (ITU T.81: JFIF, 8-bit, Huffman tables of its annex K, 4:2:0 chroma),
// small enough to run in a Worker per request. It turns the generated preview art into pictures a
// browser decodes off its main thread, as it does real photos (an SVG is a document of its own,
// painted on the main thread).

const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52,
  45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

// Annex K.1: the example quantisation tables (natural order), scaled by the quality.
const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
  49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

// Annex K.3: the typical Huffman tables (code counts per length 1-16, then the symbols).
const DC_LUMA = { bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], vals: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
const DC_CHROMA = { bits: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], vals: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
const AC_LUMA = {
  bits: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
  vals: hex(
    '01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa',
  ),
};
const AC_CHROMA = {
  bits: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
  vals: hex(
    '000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9fa',
  ),
};

function hex(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 2) out.push(Number.parseInt(s.slice(i, i + 2), 16));
  return out;
}

interface Table {
  bits: number[];
  vals: number[];
}
type Codes = { code: Int32Array; size: Int32Array };

/** Annex C: the code and its length for every symbol of a table. */
function codesOf(t: Table): Codes {
  const code = new Int32Array(256);
  const size = new Int32Array(256);
  let c = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < t.bits[len - 1]; i++) {
      code[t.vals[k]] = c++;
      size[t.vals[k]] = len;
      k++;
    }
    c <<= 1;
  }
  return { code, size };
}
const CODES = { dcY: codesOf(DC_LUMA), dcC: codesOf(DC_CHROMA), acY: codesOf(AC_LUMA), acC: codesOf(AC_CHROMA) };

function scaled(table: number[], quality: number): number[] {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const s = q < 50 ? 5000 / q : 200 - q * 2;
  return table.map((v) => Math.min(255, Math.max(1, Math.floor((v * s + 50) / 100))));
}

// The DCT as a matrix: C[u][x] = c(u)/2 · cos((2x+1)uπ/16).
const DCT = new Float64Array(64);
for (let u = 0; u < 8; u++) for (let x = 0; x < 8; x++) DCT[u * 8 + x] = (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);

class BitWriter {
  bytes: number[] = [];
  private acc = 0;
  private n = 0;
  /** Appends the low `size` bits of `code` (at most 16), most significant first. */
  write(code: number, size: number): void {
    this.acc = ((this.acc << size) | (code & ((1 << size) - 1))) >>> 0;
    this.n += size;
    while (this.n >= 8) {
      this.n -= 8;
      const byte = (this.acc >>> this.n) & 0xff;
      this.bytes.push(byte);
      if (byte === 0xff) this.bytes.push(0); // byte stuffing
    }
    this.acc &= (1 << this.n) - 1;
  }
  /** Pads the last byte with 1 bits. */
  end(): void {
    if (this.n > 0) this.write(0xff, 8 - this.n);
  }
}

/** The magnitude category of a coefficient (F.1.2.1): the number of bits of its absolute value. */
function category(v: number): number {
  let a = v < 0 ? -v : v;
  let size = 0;
  while (a) {
    size++;
    a >>= 1;
  }
  return size;
}
/** The value's bits in its category (negative values as ones' complement). */
const bitsOf = (v: number, size: number) => (v < 0 ? v + (1 << size) - 1 : v);

const tmp = new Float64Array(64);
const coef = new Int32Array(64);
/** One 8x8 block (values centred on 0 by the caller): DCT, quantise, Huffman code. Returns the DC. */
function encodeBlock(w: BitWriter, block: Float64Array, q: number[], prevDc: number, dc: Codes, ac: Codes): number {
  for (let u = 0; u < 8; u++)
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += DCT[u * 8 + y] * block[x * 8 + y];
      tmp[x * 8 + u] = s;
    }
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += DCT[v * 8 + x] * tmp[x * 8 + u];
      coef[v * 8 + u] = Math.round(s / q[v * 8 + u]);
    }
  const diff = coef[0] - prevDc;
  const ds = category(diff);
  w.write(dc.code[ds], dc.size[ds]);
  if (ds) w.write(bitsOf(diff, ds), ds);
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const c = coef[ZIGZAG[k]];
    if (c === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      w.write(ac.code[0xf0], ac.size[0xf0]);
      run -= 16;
    }
    const s = category(c);
    const sym = (run << 4) | s;
    w.write(ac.code[sym], ac.size[sym]);
    w.write(bitsOf(c, s), s);
    run = 0;
  }
  if (run > 0) w.write(ac.code[0], ac.size[0]);
  return coef[0];
}

function segment(marker: number, body: number[]): number[] {
  const len = body.length + 2;
  return [0xff, marker, len >> 8, len & 0xff, ...body];
}

/** Encodes `rgb` (width·height·3 bytes, rows top to bottom) as a baseline JPEG at `quality` (1-100). */
export function encodeJpeg(rgb: Uint8Array, width: number, height: number, quality = 80): Uint8Array<ArrayBuffer> {
  const qy = scaled(LUMA_Q, quality);
  const qc = scaled(CHROMA_Q, quality);
  const head: number[] = [0xff, 0xd8];
  head.push(...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  head.push(...segment(0xdb, [0, ...ZIGZAG.map((i) => qy[i]), 1, ...ZIGZAG.map((i) => qc[i])]));
  head.push(...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]));
  for (const [cls, t] of [
    [0x00, DC_LUMA],
    [0x10, AC_LUMA],
    [0x01, DC_CHROMA],
    [0x11, AC_CHROMA],
  ] as const)
    head.push(...segment(0xc4, [cls, ...t.bits, ...t.vals]));
  head.push(...segment(0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]));

  // Y, Cb, Cr planes (JFIF's conversion), edges repeated to whole 16x16 macroblocks.
  const mw = Math.ceil(width / 16) * 16;
  const mh = Math.ceil(height / 16) * 16;
  const Y = new Float64Array(mw * mh);
  const Cb = new Float64Array(mw * mh);
  const Cr = new Float64Array(mw * mh);
  for (let y = 0; y < mh; y++)
    for (let x = 0; x < mw; x++) {
      const i = (Math.min(y, height - 1) * width + Math.min(x, width - 1)) * 3;
      const r = rgb[i];
      const g = rgb[i + 1];
      const b = rgb[i + 2];
      const o = y * mw + x;
      Y[o] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
      Cb[o] = -0.168736 * r - 0.331264 * g + 0.5 * b;
      Cr[o] = 0.5 * r - 0.418688 * g - 0.081312 * b;
    }
  const w = new BitWriter();
  const block = new Float64Array(64);
  let dcY = 0;
  let dcCb = 0;
  let dcCr = 0;
  for (let my = 0; my < mh; my += 16)
    for (let mx = 0; mx < mw; mx += 16) {
      for (const [bx, by] of [
        [0, 0],
        [8, 0],
        [0, 8],
        [8, 8],
      ]) {
        for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) block[y * 8 + x] = Y[(my + by + y) * mw + mx + bx + x];
        dcY = encodeBlock(w, block, qy, dcY, CODES.dcY, CODES.acY);
      }
      for (const [plane, which] of [
        [Cb, 0],
        [Cr, 1],
      ] as const) {
        // 2x2 averages: the chroma of the macroblock at half resolution.
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 8; x++) {
            const o = (my + 2 * y) * mw + mx + 2 * x;
            block[y * 8 + x] = (plane[o] + plane[o + 1] + plane[o + mw] + plane[o + mw + 1]) / 4;
          }
        if (which === 0) dcCb = encodeBlock(w, block, qc, dcCb, CODES.dcC, CODES.acC);
        else dcCr = encodeBlock(w, block, qc, dcCr, CODES.dcC, CODES.acC);
      }
    }
  w.end();
  const out = new Uint8Array(head.length + w.bytes.length + 2);
  out.set(head, 0);
  out.set(w.bytes, head.length);
  out.set([0xff, 0xd9], head.length + w.bytes.length);
  return out;
}
