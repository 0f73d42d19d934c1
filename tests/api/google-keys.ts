import { env } from 'cloudflare:workers';
import { importJWK, SignJWT, type JWK } from 'jose';

// Google ID tokens for tests, signed with the key pair made in vitest.workers.config.ts (the
// worker trusts its public half through GOOGLE_JWKS_JSON).

export const GOOGLE_AUD = 'test-client-id.apps.googleusercontent.com';
export const GOOGLE_ISS = 'https://accounts.google.com';

export interface IdTokenOptions {
  sub?: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  aud?: string;
  iss?: string;
  /** Seconds from now (negative: already expired). */
  expiresIn?: number;
  /** Sign with this private JWK instead of the trusted one. */
  key?: JWK;
  kid?: string;
}

let trusted: JWK | null = null;
function trustedKey(): JWK {
  trusted ??= JSON.parse(env.TEST_GOOGLE_PRIVATE_JWK) as JWK;
  return trusted;
}

/** A second RSA key the worker does not know (for bad-signature cases). */
export async function untrustedKey(): Promise<JWK> {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  return (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JWK;
}

export async function googleIdToken(o: IdTokenOptions): Promise<string> {
  const jwk = o.key ?? trustedKey();
  const key = await importJWK(jwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = o.expiresIn ?? 3600;
  return new SignJWT({ email: o.email, email_verified: o.email_verified ?? true, ...(o.name ? { name: o.name } : {}) })
    .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? trustedKey().kid ?? 'test-google-key', typ: 'JWT' })
    .setIssuer(o.iss ?? GOOGLE_ISS)
    .setAudience(o.aud ?? GOOGLE_AUD)
    .setSubject(o.sub ?? `g${Date.now()}${Math.floor(Math.random() * 1e9)}`)
    .setIssuedAt(Math.min(now, now + expiresIn - 60))
    .setExpirationTime(now + expiresIn)
    .sign(key);
}
