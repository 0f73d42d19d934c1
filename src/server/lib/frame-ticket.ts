import { jwtVerify } from 'jose';
import type { Bindings } from '../env';
import { keyBytes, signHs256, tokenSecret } from './hs256';

// The ticket of a partner frame URL (/api/chat/external/vxm?session=…&show=…&ticket=…): a
// short-lived HS256 JWT naming one chat session and one show, under its own issuer and key label,
// so it is never valid as a room token (nor a room token as a ticket). The frame also checks that
// the browser opening it owns the session: a leaked URL alone opens nothing.

export const FRAME_TICKET_TTL_S = 120;
const ISSUER = 'livecam-vxm';

export interface FrameTicket {
  /** The chat session id. */
  sub: string;
  show: number;
}

function key(env: Bindings): Uint8Array {
  return keyBytes(`vxm-ticket:${tokenSecret(env)}`);
}

export function signFrameTicket(env: Bindings, t: FrameTicket, ttlSeconds = FRAME_TICKET_TTL_S): Promise<string> {
  return signHs256(key(env), ISSUER, t.sub, { show: t.show }, ttlSeconds);
}

/** The ticket's claims when it is valid, unexpired and names exactly this session and show; else null. */
export async function verifyFrameTicket(env: Bindings, token: string | undefined, sessionId: string | undefined, showId: number): Promise<FrameTicket | null> {
  if (!token || token.length > 2048 || !sessionId) return null;
  try {
    const { payload } = await jwtVerify(token, key(env), { algorithms: ['HS256'], issuer: ISSUER });
    if (payload.sub !== sessionId || payload.show !== showId) return null;
    return { sub: payload.sub, show: showId };
  } catch {
    return null;
  }
}

/** The frame URL of a session (same origin, path under /api). */
export async function frameUrl(env: Bindings, t: FrameTicket): Promise<string> {
  const q = new URLSearchParams({ session: t.sub, show: String(t.show), ticket: await signFrameTicket(env, t) });
  return `/api/chat/external/vxm?${q}`;
}
