import type { Context } from 'hono';
import type { AppEnv, Bindings } from '../../env';
import { frameUrl } from '../../lib/frame-ticket';
import type { ChatSessionRow, ChatShowRow } from './chat.repo';
import { leaseMs } from './chat-timings';

// External provider shows (contentprovider_id > 1): their sessions are created by the same start
// call as every other (same rules, codes, billing, nickname and limits), hold a lease in the room
// that the page extends every 10 s, and run in the partner frame served at /api/chat/external/vxm.

export const isExternal = (show: Pick<ChatShowRow, 'contentprovider_id'>) => show.contentprovider_id > 1;

/** The start answer's extra fields for a partner show's session (none for the own provider's). */
export async function externalStart(env: Bindings, show: Pick<ChatShowRow, 'id' | 'contentprovider_id'>, sessionId: string): Promise<{ frame?: string; lease_ms?: number }> {
  if (!isExternal(show)) return {};
  return { frame: await frameUrl(env, { sub: sessionId, show: show.id }), lease_ms: leaseMs(env) };
}

/** The browser asking owns the session: the member's own, or a guest session of this browser session. */
export function ownsSession(c: Context<AppEnv>, s: Pick<ChatSessionRow, 'user_id' | 'visitor'>): boolean {
  const user = c.get('user');
  if (user) return s.user_id === user.id;
  const sid = c.get('cookieSessionId');
  return s.user_id === null && !!sid && s.visitor === sid;
}
