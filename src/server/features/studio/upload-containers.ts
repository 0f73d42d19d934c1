// Whether an uploaded video is the container it claims to be (issue 24): the first bytes alone (a
// WebM or MP4 signature followed by anything) are not enough. WebM: the EBML header names the
// DocType "webm", a Segment follows with Matroska's top-level elements (Info and Tracks before the
// first Cluster, which starts with its Timestamp), and a Segment of known size ends with the file.
// MP4: a known `ftyp` brand, then only ISO BMFF top-level boxes, a `moov` (header first), media. Only headers are read.

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/** The first bytes read in one go: the headers of both containers sit in them. */
export const CONTAINER_HEAD_BYTES = 64 * 1024;
/** At most this many further ranged reads (top-level elements or boxes beyond the head). */
const MAX_READS = 48;

/** A reader over bytes in memory (a preview sent whole). */
export const readBytes =
  (bytes: Uint8Array): ReadAt =>
  async (offset, length) =>
    bytes.subarray(offset, Math.min(bytes.length, offset + length));

/** Reads through the head when it holds the range, else with a counted ranged read (null once MAX_READS are spent). */
type At = ((offset: number, length: number) => Promise<Uint8Array | null>) & { spent: () => boolean };

function windowed(read: ReadAt, head: Uint8Array): At {
  let reads = 0;
  const at = async (offset: number, length: number): Promise<Uint8Array | null> => {
    if (offset + length <= head.length) return head.subarray(offset, offset + length);
    if (++reads > MAX_READS) return null;
    return read(offset, length);
  };
  return Object.assign(at, { spent: () => reads > MAX_READS });
}

/** True when the file of `size` bytes is a well-formed container of `mime` (video/webm, video/mp4). */
export async function isVideoContainer(mime: string, read: ReadAt, size: number): Promise<boolean> {
  try {
    const head = await read(0, Math.min(size, CONTAINER_HEAD_BYTES));
    if (mime === 'video/webm') return await isWebm(windowed(read, head), size);
    if (mime === 'video/mp4') return await isMp4(windowed(read, head), size);
    return false;
  } catch {
    return false;
  }
}

// ---- WebM (Matroska/EBML) ----

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const CLUSTER = 0x1f43b675;
const TIMESTAMP = 0xe7;
const CRC32 = 0xbf;
/** Top-level elements a Segment may hold. */
const SEGMENT_CHILDREN = new Set([0x114d9b74, INFO, TRACKS, CLUSTER, 0x1c53bb6b, 0x1043a770, 0x1254c367, 0x1941a469, 0xec, CRC32]);

interface Vint {
  length: number;
  value: number;
  unknown: boolean;
}

/** An EBML variable-length integer at `at`: an element id (marker kept) or a size (marker dropped). */
function vint(b: Uint8Array, at: number, id: boolean): Vint | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > (id ? 4 : 8) || at + length > b.length) return null;
  let value = id ? first : first & (0xff >> length);
  let ones = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i];
    ones &&= b[at + i] === 0xff;
  }
  return { length, value, unknown: !id && ones };
}

interface Element {
  id: number;
  size: number;
  unknown: boolean;
  /** Offset of the element's data. */
  data: number;
}

async function element(at: At, offset: number, fileSize: number): Promise<Element | null> {
  const b = await at(offset, Math.min(12, fileSize - offset));
  if (!b) return null;
  const id = vint(b, 0, true);
  const size = id && vint(b, id.length, false);
  if (!id || !size) return null;
  return { id: id.value, size: size.value, unknown: size.unknown, data: offset + id.length + size.length };
}

async function isWebm(at: At, fileSize: number): Promise<boolean> {
  const header = await element(at, 0, fileSize);
  if (!header || header.id !== EBML || header.unknown || header.size > 4096) return false;
  const end = header.data + header.size;
  const bytes = await at(0, end);
  if (!bytes || bytes.length < end) return false;
  let docType: string | null = null;
  for (let p = header.data; p < end; ) {
    const child = await element(at, p, fileSize);
    if (!child || child.unknown || child.data + child.size > end) return false;
    if (child.id === DOC_TYPE) docType = new TextDecoder().decode(bytes.subarray(child.data, child.data + child.size)).replace(/\0+$/, '');
    p = child.data + child.size;
  }
  if (docType !== 'webm') return false;
  const segment = await element(at, end, fileSize);
  if (!segment || segment.id !== SEGMENT) return false;
  // A Segment of known size is the rest of the file: nothing rides along behind it.
  if (!segment.unknown && segment.data + segment.size !== fileSize) return false;
  const segmentEnd = segment.unknown ? fileSize : segment.data + segment.size;
  let info = false;
  let tracks = false;
  for (let p = segment.data; p < segmentEnd; ) {
    const child = await element(at, p, fileSize);
    if (!child || !SEGMENT_CHILDREN.has(child.id)) return false;
    if (child.id === CLUSTER) {
      if (!info || !tracks) return false;
      const first = await element(at, child.data, fileSize);
      return first !== null && (first.id === TIMESTAMP || first.id === CRC32);
    }
    if (child.unknown || child.data + child.size > segmentEnd) return false;
    if (child.id === INFO) info = true;
    if (child.id === TRACKS) {
      const entry = await element(at, child.data, fileSize);
      if (!entry || entry.id !== TRACK_ENTRY) return false;
      tracks = true;
    }
    p = child.data + child.size;
  }
  // No Cluster: no media.
  return false;
}

// ---- MP4 (ISO base media file format) ----

/** Brands of MP4 video files (major or compatible). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso8', 'iso9', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash', 'cmfc', 'cmf2', 'mmp4', 'msnv']);
/** Boxes that may stand at the top level of an MP4 file after the ftyp. */
const MP4_TOP = new Set(['moov', 'mdat', 'free', 'skip', 'wide', 'uuid', 'moof', 'mfra', 'meta', 'pdin', 'styp', 'sidx', 'ssix', 'emsg', 'prft', 'udta']);

const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];

interface Box {
  type: string;
  size: number;
  header: number;
}

async function box(at: At, offset: number, limit: number): Promise<Box | null> {
  if (limit - offset < 8) return null;
  const b = await at(offset, Math.min(16, limit - offset));
  if (!b || b.length < 8) return null;
  let size = u32(b, 0);
  let header = 8;
  if (size === 1) {
    if (b.length < 16) return null;
    size = u32(b, 8) * 2 ** 32 + u32(b, 12);
    header = 16;
  } else if (size === 0) {
    size = limit - offset;
  }
  const type = fourcc(b, 4);
  if (size < header || offset + size > limit || !/^[\x20-\x7e]{4}$/.test(type)) return null;
  return { type, size, header };
}

async function isMp4(at: At, fileSize: number): Promise<boolean> {
  const ftyp = await box(at, 0, fileSize);
  if (!ftyp || ftyp.type !== 'ftyp' || ftyp.size < 16 || ftyp.size > 1024 || (ftyp.size - 16) % 4 !== 0) return false;
  const f = await at(0, ftyp.size);
  if (!f || f.length < ftyp.size) return false;
  const brands = [fourcc(f, 8), ...Array.from({ length: (ftyp.size - 16) / 4 }, (_, i) => fourcc(f, 16 + 4 * i))];
  if (!brands.some((b) => MP4_BRANDS.has(b))) return false;
  let moov = false;
  let media = false;
  let p = ftyp.size;
  while (p < fileSize) {
    const b = await box(at, p, fileSize);
    // Past the read budget a long fragmented file is taken as it began (header and first fragments sound).
    if (!b) return at.spent() && moov && media;
    if (!MP4_TOP.has(b.type)) return false;
    if (b.type === 'moov') {
      const first = await box(at, p + b.header, p + b.size);
      if (!first || first.type !== 'mvhd') return false;
      moov = true;
    }
    if (b.type === 'mdat' || b.type === 'moof') media = true;
    p += b.size;
  }
  return moov && media;
}

// ---- Pictures (gallery pictures and their thumbnails, video posters) ----

/**
 * True when `b` is a well-formed picture of `mime`: PNG with its IHDR first and IEND last; JPEG
 * whose marker segments lead through a frame header (SOF) to the scan (SOS); WebP whose RIFF size
 * is the file's and whose first chunk is VP8, VP8L or VP8X.
 */
export function isPicture(mime: string, b: Uint8Array): boolean {
  if (mime === 'image/png') return isPng(b);
  if (mime === 'image/jpeg') return isJpeg(b);
  if (mime === 'image/webp') return isWebp(b);
  return false;
}

function isPng(b: Uint8Array): boolean {
  const IEND = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
  if (b.length < 8 + 25 + 12) return false;
  if (u32(b, 8) !== 13 || fourcc(b, 12) !== 'IHDR' || u32(b, 16) === 0 || u32(b, 20) === 0) return false;
  return IEND.every((x, i) => b[b.length - 12 + i] === x);
}

function isJpeg(b: Uint8Array): boolean {
  if (b[0] !== 0xff || b[1] !== 0xd8) return false;
  let frame = false;
  for (let p = 2; p + 4 <= b.length; ) {
    if (b[p] !== 0xff) return false;
    const marker = b[p + 1];
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      p += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xd8) return false;
    const length = (b[p + 2] << 8) + b[p + 3];
    if (length < 2 || p + 2 + length > b.length) return false;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) frame = true;
    if (marker === 0xda) return frame && p + 2 + length < b.length;
    p += 2 + length;
  }
  return false;
}

function isWebp(b: Uint8Array): boolean {
  if (b.length < 20 || fourcc(b, 0) !== 'RIFF' || fourcc(b, 8) !== 'WEBP') return false;
  const riff = b[4] + (b[5] << 8) + (b[6] << 16) + b[7] * 2 ** 24;
  return riff + 8 === b.length && ['VP8 ', 'VP8L', 'VP8X'].includes(fourcc(b, 12));
}
