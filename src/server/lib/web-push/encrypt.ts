// Web Push message encryption (RFC 8291) in the aes128gcm content coding (RFC 8188), done with
// the Workers' Web Crypto only. One record: the payload of a push is at most a few hundred bytes.

const enc = new TextEncoder();
/** RFC 8188 record size; any value above the one record we send will do (RFC 8291 uses 4096). */
const RECORD_SIZE = 4096;
/** Push services accept at most 4096 bytes of body; the header and tag take 103 of them (RFC 8291 section 4). */
export const MAX_PLAINTEXT_BYTES = 3993;

export function b64uEncode(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (padding optional); throws on anything else. */
export function b64uDecode(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new Error('not base64url');
  const bin = atob(text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', ikm as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, info: info as Uint8Array<ArrayBuffer> }, key, length * 8);
  return new Uint8Array(bits);
}

/** An uncompressed P-256 point (65 bytes, 0x04 || x || y) as a JWK, with the private scalar when given. */
export function p256Jwk(publicKey: Uint8Array, d?: Uint8Array): JsonWebKey {
  if (publicKey.length !== 65 || publicKey[0] !== 4) throw new Error('not an uncompressed P-256 point');
  return { kty: 'EC', crv: 'P-256', x: b64uEncode(publicKey.slice(1, 33)), y: b64uEncode(publicKey.slice(33)), ...(d ? { d: b64uEncode(d) } : {}), ext: true };
}

export interface ServerKeys {
  privateKey: CryptoKey;
  /** The raw public key (65 bytes). */
  publicKey: Uint8Array;
}

/** A fresh ECDH key pair for one message (RFC 8291 section 3.1: never reused). */
export async function ephemeralKeys(): Promise<ServerKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  return { privateKey: pair.privateKey, publicKey: new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer) };
}

/** A fixed ECDH key pair (the RFC's example key in tests). */
export async function importServerKeys(publicKey: Uint8Array, d: Uint8Array): Promise<ServerKeys> {
  const privateKey = await crypto.subtle.importKey('jwk', p256Jwk(publicKey, d), { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  return { privateKey, publicKey };
}

/**
 * The key and nonce of a message (RFC 8291 section 3.4): IKM from the ECDH secret and the
 * subscription's auth secret, then CEK and nonce from the salt (RFC 8188 section 2.2).
 */
export async function contentKeys(ecdhSecret: Uint8Array, auth: Uint8Array, uaPublic: Uint8Array, asPublic: Uint8Array, salt: Uint8Array) {
  const keyInfo = concat(enc.encode('WebPush: info\0'), uaPublic, asPublic);
  const ikm = await hkdf(auth, ecdhSecret, keyInfo, 32);
  const cek = await hkdf(salt, ikm, enc.encode('Content-Encoding: aes128gcm\0'), 16);
  const nonce = await hkdf(salt, ikm, enc.encode('Content-Encoding: nonce\0'), 12);
  return { cek, nonce };
}

export interface EncryptOptions {
  /** Tests only: the RFC's salt and server key pair; by default both are fresh for each message. */
  salt?: Uint8Array;
  serverKeys?: ServerKeys;
}

/**
 * Encrypts a push message for a subscription (its p256dh public key and auth secret, as the
 * browser gives them) into one aes128gcm body: salt || rs || idlen || as_public || ciphertext.
 */
export async function encryptPayload(plaintext: Uint8Array, p256dh: Uint8Array, auth: Uint8Array, options: EncryptOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  if (plaintext.length > MAX_PLAINTEXT_BYTES) throw new Error('push payload too large');
  if (auth.length !== 16) throw new Error('auth secret must be 16 bytes');
  const salt = options.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const server = options.serverKeys ?? (await ephemeralKeys());
  const uaKey = await crypto.subtle.importKey('jwk', p256Jwk(p256dh), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: uaKey }, server.privateKey, 256));
  const { cek, nonce } = await contentKeys(ecdhSecret, auth, p256dh, server.publicKey, salt);
  const key = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['encrypt']);
  // 0x02: the padding delimiter of the last (here the only) record, no padding after it.
  const record = concat(plaintext, new Uint8Array([2]));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, key, record));
  const header = new Uint8Array(21);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = server.publicKey.length;
  return concat(header, server.publicKey, ciphertext);
}
