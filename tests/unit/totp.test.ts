import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, otpauthUri, totp, totpMatch } from '../../src/shared/totp';

// RFC 6238 appendix B (the SHA-1 rows, secret "12345678901234567890", 8 digits) and RFC 4226
// appendix D (HOTP, 6 digits), then what the worker accepts: the step now, one before or after, once.

const secret = new TextEncoder().encode('12345678901234567890');

describe('TOTP (RFC 6238, HMAC-SHA1)', () => {
  it('the RFC 6238 test vectors (8 digits)', async () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [time, code] of vectors) expect(await totp(secret, time, 8)).toBe(code);
  });

  it('the RFC 4226 HOTP vectors (6 digits)', async () => {
    const codes = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    for (const [counter, code] of codes.entries()) expect(await hotp(secret, counter)).toBe(code);
  });

  it('base32 round trip and the RFC 4648 vectors; not base32 is refused', () => {
    const enc = new TextEncoder();
    expect(base32Encode(enc.encode('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(enc.encode('f'))).toBe('MY');
    expect(new TextDecoder().decode(base32Decode('mzxw 6ytb oi==')!)).toBe('foobar');
    expect(base32Decode('MZ1W')).toBeNull();
    const random = crypto.getRandomValues(new Uint8Array(20));
    expect(base32Decode(base32Encode(random))).toEqual(random);
  });

  it('a code matches its step, the one before and the one after; not two away, nor a malformed code', async () => {
    const t = 1_800_000_000;
    const step = Math.floor(t / 30);
    expect(await totpMatch(secret, await totp(secret, t), t)).toBe(step);
    expect(await totpMatch(secret, await totp(secret, t - 30), t)).toBe(step - 1);
    expect(await totpMatch(secret, await totp(secret, t + 30), t)).toBe(step + 1);
    expect(await totpMatch(secret, await totp(secret, t - 60), t)).toBeNull();
    expect(await totpMatch(secret, await totp(secret, t + 60), t)).toBeNull();
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 123456']) expect(await totpMatch(secret, bad, t)).toBeNull();
  });

  it('the otpauth URI names the issuer, the account and the parameters', () => {
    expect(otpauthUri('Cams Operators', 'op@example.com', 'ABC')).toBe(
      'otpauth://totp/Cams%20Operators%3Aop%40example.com?secret=ABC&issuer=Cams%20Operators&algorithm=SHA1&digits=6&period=30',
    );
  });
});
