// Messages on the lobby socket (/api/realtime). Show events go to every page; user events only
// to the sockets of that member, on the same connection.
export interface ShowStatus {
  id: number;
  online: boolean;
}

export type RealtimeEvent =
  | { type: 'hello'; shard: number }
  /** ts: when the hub sent it (ms), so receivers can measure fan-out time. */
  | { type: 'show:bulkupdate'; seq: number; ts: number; data: ShowStatus[] }
  | { type: 'user:coins'; coins: number }
  | { type: 'user:logout' }
  | { type: 'user:avs'; agechecked: boolean }
  /** Unread messages. No side: the member's own inbox; side studio/support: the performer's or operator's inbox. */
  | { type: 'user:mc'; count: number; side?: 'studio' | 'support' }
  /** A favourite went online inside the member's notification window (once per show and window). */
  | { type: 'user:favorite_online'; showId: number; name: string; slugName: string };

export const REALTIME_PATH = '/api/realtime';
/** How long the hub gathers status changes before one show:bulkupdate goes out. */
export const BULKUPDATE_BATCH_MS = 250;

export function parseEvent(data: unknown): RealtimeEvent | null {
  if (typeof data !== 'string' || data.length > 1_000_000) return null;
  try {
    const value = JSON.parse(data) as { type?: unknown };
    return value && typeof value.type === 'string' ? (value as RealtimeEvent) : null;
  } catch {
    return null;
  }
}
