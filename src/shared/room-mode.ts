import type { RoomMode, SessionState, SessionType } from './chat';

// A show room's mode, from the show's state and its running private or exclusive session: what
// every viewer sees (free, private, exclusive, paused, offline) and who receives video.

export function roomMode(show: { online: boolean; paused: boolean } | null, running: SessionType | null): RoomMode {
  if (!show || !show.online) return 'offline';
  if (show.paused) return 'paused';
  if (running === 'exclusive') return 'exclusive';
  if (running === 'private') return 'private';
  return 'free';
}

/** The running private or exclusive session among `sessions`. */
export function runningOf<S extends { state: SessionState; type: SessionType }>(sessions: Iterable<S>): S | null {
  for (const s of sessions) if (s.state === 'active' && (s.type === 'private' || s.type === 'exclusive')) return s;
  return null;
}
