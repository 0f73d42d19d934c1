import { jwtVerify, errors } from 'jose';
import type { Bindings } from '../env';
import { keyBytes, signHs256, tokenSecret } from './hs256';

// The room token ("password" of a chat session answer): a short-lived HS256 JWT bound to one
// chat session (sub) AND one show (show). The room's socket route refuses a token of another
// show, an expired one and a forged one; the beacon end accepts it as the owner's proof. A
// member's or performer's token names the login it was issued to (lid): once that login ends
// (logout, password change) the socket route refuses it, however young it is.

export const ROOM_TOKEN_TTL_S = 300;
const ISSUER = 'livecam-room';

export type RoomRole = 'performer' | 'member' | 'guest';

export interface RoomClaims {
  /** The chat session id, or 'performer'. */
  sub: string;
  show: number;
  role: RoomRole;
  /** Member or performer user id; null for guests. */
  uid: number | null;
  /** The login the token was issued to (Variables.loginId); null for guests. */
  login?: string | null;
}

function secret(env: Bindings): Uint8Array {
  const s = tokenSecret(env);
  // Derived from the shared secret with its own label when no own secret is set, so a room
  // token is never valid as anything else.
  return keyBytes(env.ROOM_TOKEN_SECRET ? s : `room-token:${s}`);
}

export function signRoomToken(env: Bindings, c: RoomClaims, ttlSeconds = ROOM_TOKEN_TTL_S): Promise<string> {
  return signHs256(secret(env), ISSUER, c.sub, { show: c.show, role: c.role, uid: c.uid, lid: c.login ?? null }, ttlSeconds);
}

/** A socket's `token` event: a fresh token for the session it joined with (the `renew` command's answer). */
export async function renewal(env: Bindings, a: { sid: string; role: RoomRole; uid: number | null; login?: string | null }, show: number): Promise<string> {
  const password = await signRoomToken(env, { sub: a.sid, show, role: a.role, uid: a.uid, login: a.login ?? null });
  return JSON.stringify({ t: 'token', password });
}

/**
 * The claims of a valid token for this show, else null. `allowExpired` only for ending a
 * session (the page-hide beacon may fire long after the token was issued).
 */
export async function verifyRoomToken(env: Bindings, token: string | undefined | null, showId: number | null, allowExpired = false): Promise<RoomClaims | null> {
  if (!token || token.length > 2048) return null;
  try {
    const { payload } = await jwtVerify(token, secret(env), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      // jose checks exp; an expired token only passes when allowed (signature still checked).
      currentDate: allowExpired ? new Date(0) : undefined,
    });
    const show = payload.show;
    const role = payload.role;
    const uid = payload.uid;
    const lid = payload.lid ?? null;
    if (typeof payload.sub !== 'string' || typeof show !== 'number' || !Number.isInteger(show)) return null;
    if (role !== 'performer' && role !== 'member' && role !== 'guest') return null;
    if (uid !== null && typeof uid !== 'number') return null;
    if (lid !== null && typeof lid !== 'string') return null;
    if (showId !== null && show !== showId) return null;
    return { sub: payload.sub, show, role, uid: (uid as number | null) ?? null, login: lid as string | null };
  } catch (e) {
    if (e instanceof errors.JOSEError) return null;
    return null;
  }
}
