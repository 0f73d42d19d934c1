import type { ViewerVideoState } from '../../../shared/video';
import type { RoomSession, ShowConf } from '../chat/room/logic';
import type { RoomMode } from '../../../shared/chat';
import { roomMode, runningOf } from '../../../shared/room-mode';

// Who receives the performer's video (issue 12 point 2), as a pure function of the room:
// - free mode: every session in the room (free content);
// - private: only the running private session and paying voyeurs; exclusive: only its member;
// - paused, offline: nobody; performer publishing nothing: nobody ('camera_off');
// - a request not accepted yet, or a paid session whose minute 1 is not paid yet, sees the
//   preview ('waiting') in every mode: video goes only to what is paid or free by the show's rules;
// - the peer-to-peer engine sends from the performer's browser, so at most `cap` connected
//   viewers (the running session first, then voyeurs, then by arrival); the rest see 'full'.

export interface VideoPlan {
  /** Connected sessions that receive video now, in priority order. */
  viewers: string[];
  /** Every session's state (connected or not). */
  states: Map<string, ViewerVideoState>;
}

function rank(s: RoomSession): number {
  if (s.state === 'active' && (s.type === 'private' || s.type === 'exclusive')) return 0;
  return s.type === 'voyeur' ? 1 : 2;
}

/** One session's state in a room in `mode`, before the cap. */
function stateOf(mode: RoomMode, s: RoomSession, publishing: boolean): ViewerVideoState {
  let state: ViewerVideoState;
  if (mode === 'offline' || mode === 'paused') state = mode;
  else if (s.state === 'pending' || (s.price > 0 && s.minutes === 0)) state = 'waiting';
  else if (mode === 'free') state = 'live';
  else state = s.state === 'active' && (s.type === mode || (mode === 'private' && s.type === 'voyeur')) ? 'live' : 'private';
  return state === 'live' && !publishing ? 'camera_off' : state;
}

export function videoPlan(show: ShowConf | null, sessions: Iterable<RoomSession>, publishing: boolean, cap: number): VideoPlan {
  const list = [...sessions].filter((s) => s.state !== 'ended');
  const mode = roomMode(show, runningOf(list)?.type ?? null);
  const states = new Map<string, ViewerVideoState>();
  const eligible: RoomSession[] = [];
  for (const s of list) {
    const state = stateOf(mode, s, publishing);
    states.set(s.id, state);
    if (state === 'live' && s.goneAt === null) eligible.push(s);
  }
  eligible.sort((a, b) => rank(a) - rank(b) || a.createdAt - b.createdAt);
  const viewers = eligible.slice(0, cap).map((s) => s.id);
  for (const s of eligible.slice(cap)) states.set(s.id, 'full');
  return { viewers, states };
}

/**
 * Whether session `s` is among the plan's viewers. Without a cap (the SFU) its own state decides
 * (one pass to find the running private, no plan of the whole room): asked per viewer's video
 * call, a room of N viewers would otherwise cost N² when they all come back at once.
 */
export function receivesVideo(show: ShowConf | null, sessions: Iterable<RoomSession>, s: RoomSession, publishing: boolean, cap: number): boolean {
  if (cap !== Infinity) return videoPlan(show, sessions, publishing, cap).viewers.includes(s.id);
  if (s.state === 'ended' || s.goneAt !== null) return false;
  return stateOf(roomMode(show, runningOf(sessions)?.type ?? null), s, publishing) === 'live';
}
