import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Bindings } from '../env';

export interface GoogleIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
const DEFAULT_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
let remote: { url: string; keys: JWTVerifyGetKey } | null = null;

function keysFor(env: Bindings): JWTVerifyGetKey {
  if (env.GOOGLE_JWKS_JSON) return createLocalJWKSet(JSON.parse(env.GOOGLE_JWKS_JSON));
  const url = env.GOOGLE_JWKS_URL ?? DEFAULT_JWKS_URL;
  // The remote set caches keys per isolate; keep one per URL.
  if (remote?.url !== url) remote = { url, keys: createRemoteJWKSet(new URL(url)) };
  return remote.keys;
}

/** Verifies a Google ID token (signature, issuer, audience, expiry); null when anything is off. */
export async function verifyGoogleCredential(env: Bindings, credential: string): Promise<GoogleIdentity | null> {
  if (!env.GOOGLE_CLIENT_ID) return null;
  try {
    const { payload } = await jwtVerify(credential, keysFor(env), { issuer: ISSUERS, audience: env.GOOGLE_CLIENT_ID });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') return null;
    return {
      sub: payload.sub,
      email: payload.email,
      emailVerified: payload.email_verified === true,
      name: typeof payload.name === 'string' ? payload.name : null,
    };
  } catch {
    return null;
  }
}
