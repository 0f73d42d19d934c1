import { SignJWT, type JWTPayload } from 'jose';
import type { Bindings } from '../env';
import { nowSeconds } from './clock';

// The short-lived HS256 JWTs of the site (room tokens, partner frame tickets): one way to sign
// them and one place that says which secret they are derived from.

const encoder = new TextEncoder();

/** The secret behind the tokens (its own, else the session's, else the pepper). */
export function tokenSecret(env: Bindings): string {
  const s = env.ROOM_TOKEN_SECRET ?? env.SESSION_SECRET ?? env.PASSWORD_PEPPER;
  if (!s) throw new Error('ROOM_TOKEN_SECRET is not configured');
  return s;
}

export const keyBytes = (text: string): Uint8Array => encoder.encode(text);

/** Signs claims for one subject under an issuer, valid for ttlSeconds from now. */
export function signHs256(key: Uint8Array, issuer: string, sub: string, claims: JWTPayload, ttlSeconds: number): Promise<string> {
  const now = nowSeconds();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(issuer)
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key);
}
