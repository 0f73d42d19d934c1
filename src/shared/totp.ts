// TOTP (RFC 6238 over RFC 4226 HOTP, HMAC-SHA1, 30 s steps) with Web Crypto, for the operators'
// second factor: the worker checks codes, and tests (Node and the browser tests) make them.

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps take). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 (spaces, case and padding ignored); null when it is not base32. */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) return null;
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** RFC 4226: the `digits`-digit code of `counter` (a 30 s step for TOTP). */
export async function hotp(secret: Uint8Array<ArrayBuffer>, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const msg = new Uint8Array(8);
  new DataView(msg.buffer).setUint32(0, Math.floor(counter / 2 ** 32));
  new DataView(msg.buffer).setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, msg));
  const at = mac[mac.length - 1] & 15;
  const bin = ((mac[at] & 127) << 24) | (mac[at + 1] << 16) | (mac[at + 2] << 8) | mac[at + 3];
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The 30 s step of unix time `seconds`. */
export const totpStep = (seconds: number) => Math.floor(seconds / TOTP_STEP_SECONDS);

/** The code for unix time `seconds`. */
export function totp(secret: Uint8Array<ArrayBuffer>, seconds: number, digits = TOTP_DIGITS): Promise<string> {
  return hotp(secret, totpStep(seconds), digits);
}

/** The step (now, one before or one after: clocks drift) whose code `code` is; null when none. */
export async function totpMatch(secret: Uint8Array<ArrayBuffer>, code: string, seconds: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(seconds);
  for (const step of [now, now - 1, now + 1]) if ((await hotp(secret, step)) === code) return step;
  return null;
}

/** The otpauth:// URI an authenticator app reads (as a link or a QR code). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
}
