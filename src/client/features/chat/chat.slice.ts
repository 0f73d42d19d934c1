import type { ChatSessionAnswer, EndReason, Participant, RoomSnapshot, SessionType, SessionView } from '../../../shared/chat';
import type { RoomLines } from './room-lines';
import type { TipGoal, TipMenuItem } from '../../../shared/tips';

// The chat slice of the root store: the viewer's chat on a show page (chat-state.ts, chat-actions.ts)
// and a partner show's chat in its frame (external-actions.ts). One of each per document; the
// room socket is a browser-only handle kept in chat-state.ts, not state.

/** A live room's tip menu and goal (kept by tips-board.ts); `at`: when the goal arrived (browser ms). */
export interface TipsBoard {
  menu: TipMenuItem[];
  goal: TipGoal | null;
  at: number;
  loaded: boolean;
}

export const emptyBoard = (): TipsBoard => ({ menu: [], goal: null, at: 0, loaded: false });

export interface ChatShow {
  id: number;
  universalId: string;
  contentproviderId: number;
  name: string;
  exclusiveOnly: boolean;
}

/** external: a partner show's session runs in its frame (external-actions.ts), not in the overlay. */
export type ChatPhase = 'idle' | 'starting' | 'connecting' | 'live' | 'ended' | 'external';

export interface ChatAlert {
  /** The catalogue code ('chat.no_coins', ...) or SESSION_ERR_UNEXPECTED. */
  code: string;
}

/** A paid chat that ended while its page was gone, as the member is told on return. */
export interface LeftSummary {
  name: string;
  type: SessionType;
  minutes: number;
  coins: number;
}

export interface RatingState {
  sessionId: string;
  providerId: number;
  showId: number;
  showName: string;
  phase: 'ask' | 'saving' | 'thanks' | 'error';
}

export interface ChatState extends RoomLines {
  phase: ChatPhase;
  show: ChatShow | null;
  type: SessionType;
  answer: ChatSessionAnswer | null;
  me: Participant | null;
  room: RoomSnapshot | null;
  session: SessionView | null;
  connected: boolean;
  /** Seconds of coins left when the room warned (one minute before they run out). */
  warn: number | null;
  ended: EndReason | null;
  alert: ChatAlert | null;
  rating: RatingState | null;
  tipBusy: boolean;
  left: LeftSummary | null;
  /** The room's tip menu and goal (tips-board.ts). */
  tips: TipsBoard;
}

export interface ExternalState {
  /** The frame URL of the running session (null: no external chat). */
  frame: string | null;
  sessionId: string | null;
  showId: number;
  showName: string;
  ended: boolean;
  /** Extend calls answered so far (tests read it from the element's data). */
  extends: number;
}

export interface ChatSlice {
  chat: ChatState;
  externalChat: ExternalState;
}

export const chatSlice = (): ChatSlice => ({
  chat: {
    phase: 'idle',
    show: null,
    type: 'private',
    answer: null,
    me: null,
    room: null,
    session: null,
    items: [],
    typing: null,
    connected: false,
    warn: null,
    ended: null,
    alert: null,
    rating: null,
    tipBusy: false,
    left: null,
    tips: emptyBoard(),
  },
  externalChat: { frame: null, sessionId: null, showId: 0, showName: '', ended: false, extends: 0 },
});
