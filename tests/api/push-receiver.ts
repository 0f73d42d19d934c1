import { b64uDecode, b64uEncode, concat, contentKeys, p256Jwk } from '../../src/server/lib/web-push/encrypt';

// The browser's half of Web Push, for tests only: a subscription's key pair and auth secret, and
// the decryption of an aes128gcm body (RFC 8291 / RFC 8188) with them.

export interface TestSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  privateKey: CryptoKey;
}

export async function newSubscription(endpoint: string): Promise<TestSubscription> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const publicKey = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { endpoint, p256dh: b64uEncode(publicKey), auth: b64uEncode(crypto.getRandomValues(new Uint8Array(16))), privateKey: pair.privateKey };
}

export async function importReceiverKey(publicKey: string, d: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('jwk', p256Jwk(b64uDecode(publicKey), b64uDecode(d)), { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
}

/** Reads a push body as the browser would: header, ECDH with the sender's key, AES-GCM, padding. */
export async function decryptPush(body: Uint8Array, receiver: { p256dh: string; auth: string; privateKey: CryptoKey }): Promise<string> {
  const salt = body.slice(0, 16);
  const idlen = body[20];
  const asPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const asKey = await crypto.subtle.importKey('jwk', p256Jwk(asPublic), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const secret = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: asKey }, receiver.privateKey, 256));
  const { cek, nonce } = await contentKeys(secret, b64uDecode(receiver.auth), b64uDecode(receiver.p256dh), asPublic, salt);
  const key = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt']);
  const record = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, key, ciphertext));
  // Strip the padding: the last non-zero byte is the delimiter (2 for the last record).
  let end = record.length - 1;
  while (end >= 0 && record[end] === 0) end--;
  if (record[end] !== 2) throw new Error('not the last record');
  return new TextDecoder().decode(record.slice(0, end));
}

export { concat };
