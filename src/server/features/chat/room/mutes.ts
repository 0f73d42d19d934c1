import type { RoomSession } from './logic';
import type { Room } from './state';

// The room's timed mutes (chat safety, room/safety.ts) as the performer's presence list shows them:
// safety.ts keeps the map (it loads it from storage and changes it); the presence list only reads
// it here, so state.ts needs nothing of safety.ts. Until the map is loaded a session shows none;
// safety.ts marks the muted sessions for the presence list once it is.

/** Whose mute a session's lines carry: the member's, or the guest browser's. */
export const whoOf = (s: RoomSession) => (s.uid ? `u:${s.uid}` : `v:${s.visitor}`);

const timed = new WeakMap<Room, Map<string, number>>();

/** safety.ts: the room's mutes (muted until, unix ms, by whoOf) from now on. */
export function keepTimedMutes(r: Room, mutes: Map<string, number>): void {
  timed.set(r, mutes);
}

/** Until when the session's member or guest is muted at `at` (null: not muted, or not known yet). */
export function timedMuteOf(r: Room, s: RoomSession, at: number): number | null {
  const until = timed.get(r)?.get(whoOf(s));
  return until !== undefined && until > at ? until : null;
}
