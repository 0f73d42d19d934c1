import { describe, expect, it } from 'vitest';
import { b64uDecode, b64uEncode, encryptPayload, importServerKeys } from '../../src/server/lib/web-push/encrypt';
import { vapidAuthorization } from '../../src/server/lib/web-push/vapid';
import { decryptPush, importReceiverKey, newSubscription } from './push-receiver';

// RFC 8291 Appendix A, every value as the RFC prints it (base64url).
const RFC = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

const text = (s: string) => new TextEncoder().encode(s);

describe('Web Push encryption (RFC 8291)', () => {
  it('reproduces the Appendix A example byte for byte with its salt and server key pair', async () => {
    const serverKeys = await importServerKeys(b64uDecode(RFC.asPublic), b64uDecode(RFC.asPrivate));
    const body = await encryptPayload(text(RFC.plaintext), b64uDecode(RFC.uaPublic), b64uDecode(RFC.auth), { salt: b64uDecode(RFC.salt), serverKeys });
    expect(b64uEncode(body)).toBe(RFC.body);
  });

  it("decrypts the RFC's body with the user agent's private key and auth secret", async () => {
    const privateKey = await importReceiverKey(RFC.uaPublic, RFC.uaPrivate);
    expect(await decryptPush(b64uDecode(RFC.body), { p256dh: RFC.uaPublic, auth: RFC.auth, privateKey })).toBe(RFC.plaintext);
  });

  it('a fresh message (random salt, fresh server key) is read with the subscription keys only, and differs each time', async () => {
    const sub = await newSubscription('https://push.example.test/a');
    const payload = JSON.stringify({ title: 'Hallo – äöü', url: '/shows/1' });
    const one = await encryptPayload(text(payload), b64uDecode(sub.p256dh), b64uDecode(sub.auth));
    const two = await encryptPayload(text(payload), b64uDecode(sub.p256dh), b64uDecode(sub.auth));
    expect(b64uEncode(one)).not.toBe(b64uEncode(two));
    expect(await decryptPush(one, sub)).toBe(payload);
    const other = await newSubscription('https://push.example.test/b');
    await expect(decryptPush(one, { ...other, p256dh: sub.p256dh })).rejects.toThrow();
  });

  it('refuses an auth secret of the wrong length and an oversized payload', async () => {
    const sub = await newSubscription('https://push.example.test/c');
    await expect(encryptPayload(text('x'), b64uDecode(sub.p256dh), new Uint8Array(8))).rejects.toThrow();
    await expect(encryptPayload(new Uint8Array(4000), b64uDecode(sub.p256dh), b64uDecode(sub.auth))).rejects.toThrow();
  });
});

describe('VAPID (RFC 8292)', () => {
  it('signs an ES256 JWT for the push service origin that the public key verifies', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const publicKey = b64uEncode(new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer));
    const { d } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
    const header = await vapidAuthorization('https://push.example.test/send/abc?x=1', { publicKey, privateKey: d!, subject: 'mailto:ops@livecam.example' }, 1_000_000);
    const m = /^vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(.+)$/.exec(header);
    expect(m).not.toBeNull();
    const [, h, c, s, k] = m!;
    expect(k).toBe(publicKey);
    expect(JSON.parse(new TextDecoder().decode(b64uDecode(h)))).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(JSON.parse(new TextDecoder().decode(b64uDecode(c)))).toEqual({ aud: 'https://push.example.test', exp: 1_000_000 + 12 * 3600, sub: 'mailto:ops@livecam.example' });
    const ok = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pair.publicKey, b64uDecode(s), text(`${h}.${c}`));
    expect(ok).toBe(true);
  });
});
