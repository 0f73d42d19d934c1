import { parseVideoSignal, VIDEO_SDP_MAX } from '../../../../shared/video';
import { CHAT_RATE_BURST, CHAT_RATE_PER_S, CHAT_TEXT_MAX, ROOM_FLOOD_CLOSE, ROOM_FLOOD_WINDOW_MS, ROOM_FRAME_LIMITS } from '../../../../shared/chat';
import type { ChatLine, EndReason, OpenTypes, Participant, RoomCommand, RoomFrameKind, RoomSnapshot, SessionState, SessionType, SessionView } from '../../../../shared/chat';
import { roomMode, runningOf } from '../../../../shared/room-mode';
import { cleanLine } from '../../../lib/body';
import { parseModCommand } from '../../../../shared/chat-safety';

// The parts of a show's room that need no runtime: billing schedule, token bucket, text rules,
// the snapshot (its mode from shared/room-mode.ts) and the command parser. Unit-tested in tests/unit/room-logic.test.ts.

/** What the room knows about its show (pushed by the worker on every change it makes). */
export interface ShowConf {
  id: number;
  name: string;
  providerId: number;
  online: boolean;
  paused: boolean;
  open: OpenTypes;
}

/** The minute due at `now` of a session started at `start` (1 at the start, 2 a minute later, ...). */
export function dueMinute(start: number, minuteMs: number, now: number): number {
  if (now < start) return 1;
  return Math.floor((now - start) / minuteMs) + 1;
}

/** The start of minute `n` (1-based): start + (n-1) minutes, never drifting with late alarms. */
export function minuteStart(start: number, minuteMs: number, n: number): number {
  return start + (n - 1) * minuteMs;
}

export interface Bucket {
  tokens: number;
  at: number;
}

/** Token bucket: answers the bucket after taking one token, or null when none is left. */
export function takeToken(b: Bucket | undefined, now: number, burst = CHAT_RATE_BURST, perSecond = CHAT_RATE_PER_S): Bucket | null {
  const prev = b ?? { tokens: burst, at: now };
  const tokens = Math.min(burst, prev.tokens + ((now - prev.at) / 1000) * perSecond);
  if (tokens < 1) return null;
  return { tokens: tokens - 1, at: now };
}

/** What the room does with a frame: pass it, drop it, refuse it with chat.rate_limited, or close the socket. */
export type FrameVerdict = 'pass' | 'drop' | 'tell' | 'close';

/**
 * The room's per-sender limits (issue 24): a token bucket per sender and frame kind (and, for the
 * performer's signals, per viewer: each viewer's own requests are what the performer answers).
 * A refused frame counts against its sender's window: told once, closed when the flood goes on.
 * In memory: by the time the room hibernates (seconds of quiet) every bucket is full again.
 */
export class FrameLimiter {
  private buckets = new Map<string, Bucket>();
  private floods = new Map<string, { since: number; refused: number; told: boolean }>();

  take(sender: string, kind: RoomFrameKind, now: number, peer?: string): FrameVerdict {
    const key = peer === undefined ? `${sender} ${kind}` : `${sender} ${kind} ${peer}`;
    const limit = ROOM_FRAME_LIMITS[kind];
    const bucket = takeToken(this.buckets.get(key), now, limit.burst, limit.perSecond);
    if (bucket) {
      this.buckets.set(key, bucket);
      if (this.buckets.size > 4_096) this.prune(now);
      return 'pass';
    }
    let f = this.floods.get(sender);
    if (!f || now - f.since >= ROOM_FLOOD_WINDOW_MS) this.floods.set(sender, (f = { since: now, refused: 0, told: false }));
    f.refused++;
    if (f.refused > ROOM_FLOOD_CLOSE) return 'close';
    // A typing notice too many is invisible: nobody needs to hear about it.
    if (f.told || kind === 'typing') return 'drop';
    f.told = true;
    return 'tell';
  }

  /** Buckets untouched for a minute are full again (every kind refills within that): forgetting them changes nothing. */
  private prune(now: number): void {
    for (const [key, b] of this.buckets) if (now - b.at > 60_000) this.buckets.delete(key);
    for (const [sender, f] of this.floods) if (now - f.since >= ROOM_FLOOD_WINDOW_MS) this.floods.delete(sender);
  }
}

/** The bucket a parsed frame (null: malformed) is counted in. */
export function frameKind(cmd: RoomCommand | null): RoomFrameKind {
  if (!cmd) return 'bad';
  if (cmd.t === 'say' || cmd.t === 'typing' || cmd.t === 'signal') return cmd.t;
  return 'command';
}

/**
 * A chat line's text: cleaned by the rule every text field follows (lib/body.ts cleanLine:
 * controls and line breaks, bidi and zero-width characters, stacked combining marks), at most
 * CHAT_TEXT_MAX characters (code points). Null when nothing is left. Kept as plain text; clients
 * render text.
 */
export function cleanText(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = cleanLine(raw);
  if (!text) return null;
  return [...text].slice(0, CHAT_TEXT_MAX).join('').trim();
}

/** Lines a participant may read: public ones and private ones to or from them (all for the performer). */
export function visibleLines(lines: ChatLine[], me: string): ChatLine[] {
  if (me === 'performer') return lines;
  return lines.filter((l) => !l.to || l.to === me || l.from === me);
}

const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;
const PERFORMER_COMMANDS = new Set(['accept', 'decline', 'end', 'kick', 'ban', 'mute', 'unmute', 'video']);
/** Sockets one session (or the performer) may hold open in a room: a few tabs, not a flood. */
export const ROOM_SOCKETS_PER_SESSION = 4;

/** Largest command accepted: a signal's largest SDP with its envelope (JSON escapes of its line ends included). */
export const COMMAND_MAX_BYTES = VIDEO_SDP_MAX + 1_024;

/** Parses a client command; null when malformed. */
export function parseCommand(raw: string): RoomCommand | null {
  if (raw.length > COMMAND_MAX_BYTES) return null;
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || typeof v.t !== 'string') return null;
  if (v.t === 'say') {
    if (typeof v.text !== 'string') return null;
    if (v.to !== undefined && (typeof v.to !== 'string' || (v.to !== 'performer' && !SESSION_ID.test(v.to)))) return null;
    if (v.n !== undefined && (!Number.isSafeInteger(v.n) || (v.n as number) < 1)) return null;
    return { t: 'say', text: v.text, ...(v.to !== undefined ? { to: v.to as string } : {}), ...(v.n !== undefined ? { n: v.n as number } : {}) };
  }
  if (v.t === 'mod') return parseModCommand(v);
  if (v.t === 'typing') return { t: 'typing' };
  if (v.t === 'renew') return { t: 'renew' };
  if (v.t === 'signal') {
    if (typeof v.to !== 'string' || (v.to !== 'performer' && v.to !== 'relay' && !SESSION_ID.test(v.to))) return null;
    const data = parseVideoSignal(v.data);
    return data ? { t: 'signal', to: v.to, data } : null;
  }
  if (v.t === 'video') return typeof v.live === 'boolean' ? { t: 'video', live: v.live } : null;
  if (PERFORMER_COMMANDS.has(v.t)) {
    if (typeof v.sessionId !== 'string' || !SESSION_ID.test(v.sessionId)) return null;
    return { t: v.t, sessionId: v.sessionId } as RoomCommand;
  }
  return null;
}

export const isPerformerCommand = (c: RoomCommand) => PERFORMER_COMMANDS.has(c.t);

/** Whose daily free allowance a free session spends: the member's, or the guest browser's. */
export const freeWho = (s: RoomSession) => (s.uid ? `u:${s.uid}` : `v:${s.visitor}`);

/** UTC day number of a unix ms time (the free-chat allowance is per day). */
export const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

/** A session as the room stores it (DO storage key `s:{id}`, so it survives hibernation). */
export interface RoomSession {
  id: string;
  uid: number | null;
  visitor: string;
  nick: string;
  type: SessionType;
  state: SessionState;
  price: number;
  createdAt: number;
  startedAt: number | null;
  /** Minutes charged (paid) or reserved (free) so far. */
  minutes: number;
  coins: number;
  balance: number | null;
  warned: boolean;
  /** Since when no socket of the session is open (its creation until it first joins); null while one is. */
  goneAt: number | null;
  /** Voice-call session: the phone billing whose running call pays for the time (no coins charged). */
  phone: number | null;
  /** External provider sessions: ends (reason expired) at this time unless extended; absent for the others. */
  leaseUntil?: number | null;
  /**
   * Time the performer was away while this session ran: its minute schedule starts this much
   * later (no minute starts without the performer, and the time they were gone is not billed).
   */
  pausedMs?: number;
  /** Since when the session's minutes wait for the performer (away); null or absent while they are there. */
  heldAt?: number | null;
  /** The viewers' shard its sockets join (fanout.ts; absent: 0). */
  shard?: number;
  /** Free sessions: minutes reserved from the allowance of UTC day `freeDay` and not used yet (charges.ts FREE_CHUNK). */
  freeHeld?: number;
  freeDay?: number;
}

/** Where a running session's minute 1 starts, shifted by the performer's absences. */
export function billingStart(s: Pick<RoomSession, 'startedAt' | 'pausedMs'>): number | null {
  return s.startedAt === null ? null : s.startedAt + (s.pausedMs ?? 0);
}

/**
 * The viewer's last socket is gone: a running session's next minute waits for them as it waits
 * for a performer who is away (a minute starts only while both are there). A request accepted
 * while its member is away starts held: minute 1 is charged when they are back (acceptSession).
 */
export function holdForViewer(s: RoomSession, at: number): void {
  if ((s.state === 'pending' || (s.state === 'active' && s.startedAt !== null)) && (s.heldAt ?? null) === null) s.heldAt = at;
}

/** The viewer is back: true when a held running session's minutes go on (the performer there too, `performerThere`). */
export function viewerBack(s: RoomSession, at: number, performerThere: boolean): boolean {
  if (s.state === 'pending') {
    s.heldAt = null;
    return false;
  }
  return performerThere && resumeHeld(s, at);
}

/** Shifts a held session's schedule by the time it waited (for the performer, its viewer or both); true when it was held. */
export function resumeHeld(s: RoomSession, now: number): boolean {
  if (s.heldAt === undefined || s.heldAt === null) return false;
  s.pausedMs = (s.pausedMs ?? 0) + Math.max(0, now - s.heldAt);
  s.heldAt = null;
  return true;
}

export function sessionView(s: RoomSession, reason: EndReason | null = null): SessionView {
  return { sessionId: s.id, nick: s.nick, type: s.type, state: s.state, started_at: s.startedAt, minutes: s.minutes, coins: s.coins, price: s.price, balance: s.balance, ended_reason: reason, by_call: typeof s.phone === 'number' };
}

/** What every viewer sees: the mode, the open types, and how many viewers are connected. */
export function snapshotOf(show: ShowConf | null, sessions: Iterable<RoomSession>): RoomSnapshot {
  const list = [...sessions];
  return {
    showId: show?.id ?? 0,
    mode: roomMode(show, runningOf(list)?.type ?? null),
    open: show?.open ?? { free: false, private: false, exclusive: false, voyeur: false },
    viewers: list.filter((s) => s.goneAt === null).length,
  };
}

/** The performer's view of the room: never an e-mail or a user id. */
export function participantsOf(sessions: Iterable<RoomSession>, mutes: Set<string>, until: (s: RoomSession) => number | null = () => null): Participant[] {
  return [...sessions].map((s) => participantOf(s, mutes, until(s)));
}

export function participantOf(s: RoomSession, mutes: Set<string>, mutedUntil: number | null = null): Participant {
  return { id: s.id, nick: s.nick, role: s.uid ? 'member' : 'guest', type: s.type, muted: mutes.has(s.id), ...(mutedUntil !== null ? { muted_until: mutedUntil } : {}) };
}
