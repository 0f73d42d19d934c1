import type { SimulcastRid, VideoRelayKind, VideoSignal, ViewerVideoState } from './video';
import type { TipRoomEvent } from './tips';

// Live rooms (issue 11): the chat session answer, the room socket's messages both ways, and the
// constants both sides share. One hibernating Durable Object per show holds the performer's and
// every viewer's socket; the worker creates sessions and signs the short-lived room tokens.

export const SESSION_TYPES = ['free', 'voyeur', 'private', 'exclusive'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];
/** Paid session types: charged per started minute. */
export const PAID_TYPES: readonly SessionType[] = ['voyeur', 'private', 'exclusive'];

/** Which kinds of session the performer has open (the studio's switches). */
export interface OpenTypes {
  free: boolean;
  private: boolean;
  exclusive: boolean;
  voyeur: boolean;
}

/** POST /api/chatsession/{universalId} {type, nickname}: the spec's fields, then ours. */
export interface ChatSessionAnswer {
  /** The room's WebSocket URL on the same origin (ws: or wss:). */
  realm: string;
  /** Connect to `${realm}?login=${login}&password=${password}` to join as this session. */
  login: string;
  /** A short-lived signed token for this session and this room only. */
  password: string;
  /** The performer's address in the room (participant id). */
  buddyaddr: string;
  session_type: SessionType;
  sessionId: string;
  contentProviderId: number;
  showId: number;
  /** Coins per started minute for this session (0 for free). */
  price: number;
  /** Length of a billed minute in ms (60,000 in production; shortened in tests). */
  minute_ms: number;
  nickname: string;
  /** Started in voice-call mode: the running phone call pays for the time (the member's coins are not charged). */
  voicecall: boolean;
  /**
   * External provider shows (contentProviderId > 1) only: the partner frame to embed
   * (`/api/chat/external/vxm?…` with a short-lived ticket for this session and room), and the
   * session's lease: it ends unless extended (POST /api/chat/external/extend) within lease_ms.
   */
  frame?: string;
  lease_ms?: number;
}

/** POST /api/chat/external/extend {sessionId}: the lease runs until `lease_until` (unix ms). */
export interface ExternalExtendAnswer {
  sessionId: string;
  lease_ms: number;
  lease_until: number;
  session: SessionView;
}

export type ParticipantRole = 'performer' | 'member' | 'guest';

/** Someone in the room as others see them (never an e-mail or a user id). `id`: 'performer' for the performer, else the session id; `muted_until`: chat safety's timed mute (unix ms), in the performer's presence list only. */
export interface Participant {
  id: string;
  nick: string;
  role: ParticipantRole;
  type: SessionType | null;
  muted: boolean;
  muted_until?: number;
}

/** The room's mode as every viewer sees it. */
export type RoomMode = 'offline' | 'paused' | 'free' | 'private' | 'exclusive';

export interface RoomSnapshot {
  showId: number;
  mode: RoomMode;
  open: OpenTypes;
  /** Viewers in the room (performer excluded). */
  viewers: number;
}

export type SessionState = 'pending' | 'active' | 'ended';

/**
 * Why a session ended. free_expired: the visitor's free minutes of the day are used up; exclusive:
 * a voyeur's session ends when the performer accepts an exclusive; call_ended: the phone call that
 * paid a voice-call session has ended; expired: an external provider session was not extended
 * within its lease; private_ended: a voyeur's session ends with the private or exclusive it watched.
 */
export type EndReason = 'member' | 'performer' | 'no_coins' | 'offline' | 'kicked' | 'banned' | 'timeout' | 'declined' | 'replaced' | 'free_expired' | 'exclusive' | 'private_ended' | 'call_ended' | 'expired' | 'logout';

/** A paid or free session as its member (and the performer) sees it. */
export interface SessionView {
  sessionId: string;
  nick: string;
  type: SessionType;
  state: SessionState;
  /** Unix ms of the start of minute 1 (null while pending). */
  started_at: number | null;
  /** Minutes charged so far and their coins. */
  minutes: number;
  coins: number;
  price: number;
  /** The member's balance after the last charge (members only). */
  balance: number | null;
  ended_reason: EndReason | null;
  /** A voice-call session: the phone call pays for the time, no coins are charged. */
  by_call: boolean;
}

export interface ChatLine {
  id: string;
  /** Participant id of the sender ('performer' or a session id); 'system' for room notices. */
  from: string;
  nick: string;
  role: ParticipantRole | 'system';
  /** Plain text, at most CHAT_TEXT_MAX characters; always rendered as text, never as HTML. */
  text: string;
  ts: number;
  /** Set for a private line between the performer and one session. */
  to?: string;
}

/** Room -> client. */
export type RoomEvent =
  | { t: 'welcome'; me: Participant; room: RoomSnapshot; history: ChatLine[]; session: SessionView | null }
  | { t: 'room'; room: RoomSnapshot }
  | { t: 'line'; line: ChatLine }
  | { t: 'typing'; from: string; nick: string }
  /** The performer only: everyone in the room (when the studio connects). */
  | { t: 'presence'; participants: Participant[] }
  /** The performer only, after that: who came or changed (`upsert`) and who left (`gone`), never the whole room again. */
  | { t: 'presence-change'; upsert: Participant[]; gone: string[] }
  /** The member's own session (and, for the performer, any session that changed). */
  | { t: 'session'; session: SessionView }
  /** The performer only: a member asks for a private or exclusive session. */
  | { t: 'request'; session: SessionView }
  /** Both sides, one minute before the member's coins run out. */
  | { t: 'warn'; code: 'coins_low'; sessionId: string; seconds: number }
  | { t: 'ended'; sessionId: string; reason: EndReason }
  | TipRoomEvent /* a tip, the goal, the tip menu (shared/tips.ts) */
  | { t: 'error'; code: string; until?: number; errors?: Record<string, string> } | import('./chat-safety').SafetyEvent
  /** Video signalling (issue 12) rides on the same socket ('relay' is the worker's SFU engine). */
  | { t: 'signal'; from: string; to: string; data: VideoSignal }
  /** A viewer's session: whether the performer's video is for it now (epoch: the performer's current publication). */
  | { t: 'video'; state: ViewerVideoState; epoch: number; layers: SimulcastRid[] }
  /** To the performer: who receives the video now (peer to peer: the sessions to offer to; with the SFU only how many), and whether OBS (WHIP) publishes it. */
  | { t: 'video-viewers'; viewers: string[]; count: number; epoch: number; relay: VideoRelayKind; whip: boolean }
  /** The answer to `renew`: a fresh room token for this socket's session (its next reconnect needs no API call). */
  | { t: 'token'; password: string };

/** Client -> room. 'ping' (a plain string) answers 'pong' (the runtime does, without the room). */
export type RoomCommand =
  /** `n`: the socket's count of its say frames (1, 2, …): the shard keeps that order (frames may reach it out of order). */
  | { t: 'say'; text: string; to?: string; n?: number }
  | { t: 'typing' }
  /** Performer only. */
  | { t: 'accept'; sessionId: string }
  | { t: 'decline'; sessionId: string }
  | { t: 'end'; sessionId: string }
  | { t: 'kick'; sessionId: string }
  | { t: 'ban'; sessionId: string }
  | { t: 'mute'; sessionId: string }
  | { t: 'unmute'; sessionId: string }
  | { t: 'signal'; to: string; data: VideoSignal }
  /** Performer only: the studio's camera is on (publishing) or off. */
  | { t: 'video'; live: boolean }
  /** A fresh room token for this socket's session, before the current one expires (answered by `token`). */
  | { t: 'renew' } | import('./chat-safety').ModCommand;

export const CHAT_TEXT_MAX = 256; // longest chat line (characters); then the per-sender rate limit (token bucket)
export const CHAT_RATE_BURST = 5;
export const CHAT_RATE_PER_S = 1;
/** A typing notice goes out at most this often (what the indicator needs); the room drops the surplus. */
export const CHAT_TYPING_EVERY_MS = 2_000;
/** What the room limits per sender, each kind with its own bucket (a performer's signals: one per viewer). */
export type RoomFrameKind = 'say' | 'typing' | 'signal' | 'command' | 'bad';
/**
 * Token buckets per sender and frame kind. Signals: a viewer's `want` makes the performer's browser
 * build a peer connection (with the SFU: paid API calls), and one connection attempt is two frames
 * (want, answer), retried every 8 s at most by the client: a few attempts at once, then one per 8 s.
 * Performer commands come in bursts (kicking a few); malformed frames a few. (Pings never reach
 * the room: the runtime answers them.)
 */
export const ROOM_FRAME_LIMITS: Record<RoomFrameKind, { burst: number; perSecond: number }> = {
  say: { burst: CHAT_RATE_BURST, perSecond: CHAT_RATE_PER_S },
  typing: { burst: 2, perSecond: 1_000 / CHAT_TYPING_EVERY_MS },
  signal: { burst: 6, perSecond: 0.25 },
  command: { burst: 20, perSecond: 2 },
  bad: { burst: 5, perSecond: 0.2 },
};
/**
 * A sender whose frames are refused hears chat.rate_limited once per window (a surplus typing
 * notice is dropped silently); more refused frames than ROOM_FLOOD_CLOSE in one window close the
 * socket with ROOM_FLOOD_CLOSE_CODE.
 */
export const ROOM_FLOOD_WINDOW_MS = 10_000;
export const ROOM_FLOOD_CLOSE = 50;
export const ROOM_FLOOD_CLOSE_CODE = 4029;
/** Lines a late joiner gets. */
export const CHAT_HISTORY = 50;
/** Production minute; tests shorten it with CHAT_MINUTE_MS. */
export const CHAT_MINUTE_MS = 60_000;
/** A session whose member socket is gone (or never came) this long ends; the same for a performer going offline. */
export const CHAT_GRACE_MS = 30_000;
/**
 * A member whose private or exclusive request the performer declined, or who let it time out,
 * asks that show again after this long: a request holds the show's one private place, so without
 * a pause one member could keep it from everyone else by asking again and again.
 */
export const PRIVATE_REQUEST_PAUSE_MS = 2 * 60_000;
/** Free chat per visitor (member or guest session) and UTC day. */
export const FREE_CHAT_SECONDS_PER_DAY = 15 * 60;
/** Voyeurs pay this share of the private price per minute (rounded, at least 1). */
export const VOYEUR_PERCENT = 50;
/** Default share of a chat minute, tip or purchase credited to the performer's earnings (the rest to the house); PERFORMER_SHARE_PERCENT overrides. */
export const PERFORMER_SHARE_PERCENT = 60;
/** Tip amounts offered in the chat. */
export const TIP_AMOUNTS = [5, 10, 25, 50, 100] as const;
/** Private-chat start delay after the session callback (spec). */
export const PRIVATE_START_DELAY_MS = 250;
/** After a chat logout the show is refetched after this long (spec). */
export const CHAT_LOGOUT_REFETCH_MS = 1_000;
/** External provider sessions are extended this often (spec). */
export const EXTERNAL_EXTEND_MS = 10_000;
/** An external session not extended for this long ends by itself (reason expired); CHAT_EXTERNAL_LEASE_MS overrides. */
export const EXTERNAL_LEASE_MS = 30_000;

/** Coins per started minute of a session type at a show's prices. */
export function minutePrice(type: SessionType, pricePerMinute: number, factorExclusive: number): number {
  if (type === 'free') return 0;
  if (type === 'exclusive') return Math.round((pricePerMinute * factorExclusive) / 100);
  if (type === 'voyeur') return Math.max(1, Math.round((pricePerMinute * VOYEUR_PERCENT) / 100));
  return pricePerMinute;
}

/** A room frame: one event, or several in a JSON array (a busy shard's events for a socket in one send). */
export function parseRoomEvents(data: unknown): RoomEvent[] | null {
  if (typeof data !== 'string' || data === 'pong') return null;
  try {
    const v = JSON.parse(data) as unknown;
    const list = (Array.isArray(v) ? v : [v]) as { t?: unknown }[];
    return list.every((e) => e && typeof e.t === 'string') ? (list as RoomEvent[]) : null;
  } catch {
    return null;
  }
}

/** Largest frame of several events (JSON characters): far below the platform's message limit. */
export const ROOM_FRAME_MAX = 64 * 1024;
