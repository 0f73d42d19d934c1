import { b64uDecode, b64uEncode, p256Jwk } from './encrypt';

// Voluntary application server identification (RFC 8292): an ES256 JWT for the push service's
// origin, signed with the VAPID private key of the configuration, and the public key beside it.

const enc = new TextEncoder();
/** RFC 8292 section 2: at most 24 hours; 12 leaves room for clock skew. */
const TOKEN_LIFETIME_S = 12 * 60 * 60;

export interface VapidKeys {
  /** Uncompressed P-256 public key, base64url (65 bytes): what browsers get as applicationServerKey. */
  publicKey: string;
  /** The private scalar d, base64url (32 bytes). */
  privateKey: string;
  /** mailto: or https: contact of the operator. */
  subject: string;
}

/** `Authorization: vapid t=<jwt>, k=<public key>` for a push to `endpoint`. */
export async function vapidAuthorization(endpoint: string, keys: VapidKeys, nowS = Math.floor(Date.now() / 1000)): Promise<string> {
  const header = b64uEncode(enc.encode(JSON.stringify({ typ: 'JWT', alg: 'ES256' })));
  const claims = b64uEncode(enc.encode(JSON.stringify({ aud: new URL(endpoint).origin, exp: nowS + TOKEN_LIFETIME_S, sub: keys.subject })));
  const jwk = p256Jwk(b64uDecode(keys.publicKey), b64uDecode(keys.privateKey));
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  // Web Crypto signs ECDSA as r || s (64 bytes), which is JWS's ES256 form (RFC 7518 section 3.4).
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, enc.encode(`${header}.${claims}`)));
  return `vapid t=${header}.${claims}.${b64uEncode(signature)}, k=${keys.publicKey}`;
}
