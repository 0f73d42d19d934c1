import {
  CHAT_LOGOUT_REFETCH_MS,
  CHAT_TEXT_MAX,
  CHAT_TYPING_EVERY_MS,
  type ChatSessionAnswer,
  type EndReason,
  type RoomEvent,
  type SessionView,
} from '../../../shared/chat';
import type { ShowDetail } from '../../../shared/shows';
import { api, ApiFailure } from '../../lib/api';
import { appStore } from '../../state/app-store';
import type { RootState } from '../../state/store';
import { openRoom, type RoomSocket } from './room-socket';
import { attachReceiver, detachReceiver, onReceiverEvent } from '../video/receiver';
import { rememberRunning } from './chat-left';
import { pushNotice, reduceLines } from './room-lines';
import type { ChatState } from './chat.slice';
import { onSafety, resetSafety, safetyErrorNotice } from './chat-safety';
import { emptyBoard } from './chat.slice';
import { applyTipsEvent, loadTips } from './tips-board';

// The viewer's chat on a show page: the start flow (type, nickname, fresh show, session, socket),
// the room's events, the end (by the member, the performer, the coins or the page going away) and
// the rating afterwards. One chat per document, in the store's chat slice (chat.slice.ts).

export const ENTER_CHAT_HASH = '#enter_chat';
/** Room error codes with their own text (others read as 'unknown'). */
const ROOM_ERRORS = new Set(['chat.muted', 'chat.rate_limited', 'chat.empty', 'chat.no_private', 'chat.session_ended']);

/** The document's chat (the chat slice, chat.slice.ts); actions run in the browser only. */
export const chat = () => appStore().chat;

/** The room socket of the running chat (one per document): a browser-only handle, not state (set by connect()). */
export const conn: { socket: RoomSocket | null } = { socket: null };

declare global {
  interface Window {
    /** Tests: drop the room socket to see the chat rejoin its session. */
    __chatSocket?: RoomSocket | null;
  }
}

export function setHash(on: boolean): void {
  const has = location.hash === ENTER_CHAT_HASH;
  if (on && !has) history.replaceState(history.state, '', location.pathname + location.search + ENTER_CHAT_HASH);
  if (!on && has) history.replaceState(history.state, '', location.pathname + location.search);
}

export function notice(key: string, vars?: Record<string, string | number>): void {
  pushNotice(chat(), key, vars);
}

export function reset(): void {
  detachReceiver();
  resetSafety();
  Object.assign(chat(), {
    phase: 'idle',
    answer: null,
    me: null,
    room: null,
    session: null,
    items: [],
    typing: null,
    connected: false,
    warn: null,
    ended: null,
    tipBusy: false,
    tips: emptyBoard(),
    // Closing the chat resets the requested type to private.
    type: 'private',
  } satisfies Partial<ChatState>);
}

/** The first catalogue code of a failed chat call (errors.type, else the first field's first error). */
export function chatErrorCode(e: unknown): string {
  if (!(e instanceof ApiFailure)) return 'SESSION_ERR_UNEXPECTED';
  const errors = e.errors ?? {};
  const first = errors.type?.[0] ?? Object.values(errors)[0]?.[0];
  if (typeof first === 'string') return first;
  console.warn('chat: error without errors object', e.status, e.message);
  return e.message && e.message.startsWith('chat.') ? e.message : 'SESSION_ERR_UNEXPECTED';
}

export function connect(store: RootState, answer: ChatSessionAnswer): void {
  conn.socket?.close();
  let first = true;
  // The first connect uses the answer's token; a reconnect asks for a fresh one (they are short-lived).
  const creds = async () => {
    if (first) {
      first = false;
      return answer;
    }
    try {
      return await api().post<{ realm: string; login: string; password: string }>(`chatsession/token/${encodeURIComponent(answer.sessionId)}`);
    } catch (e) {
      if (e instanceof ApiFailure && (e.status === 410 || e.status === 404)) endedByRoom(store, 'timeout');
      return answer;
    }
  };
  conn.socket = openRoom(creds, {
    status: (open) => {
      if (chat().answer?.sessionId === answer.sessionId) chat().connected = open;
    },
    event: (e) => {
      if (chat().answer?.sessionId === answer.sessionId) onEvent(store, e);
    },
  });
  window.__chatSocket = conn.socket;
  attachReceiver({ showId: answer.showId, send: (to, data) => conn.socket?.send({ t: 'signal', to, data }) ?? false, creds: () => conn.socket?.creds ?? null });
}

function onEvent(store: RootState, e: RoomEvent): void {
  const mine = chat().answer?.sessionId;
  if (onReceiverEvent(e)) return;
  if (e.t === 'welcome') chat().me = e.me;
  reduceLines(chat(), e, chat().me?.id ?? null);
  if (applyTipsEvent(chat(), chat().tips, e)) return;
  if (e.t === 'welcome') void loadTips(chat().tips, `chat/tips/show/${e.room.showId}`);
  switch (e.t) {
    case 'welcome': {
      chat().room = e.room;
      if (e.session) applySession(store, e.session);
      if (chat().phase === 'connecting') chat().phase = 'live';
      return;
    }
    case 'room':
      chat().room = e.room;
      return;
    case 'session':
      if (e.session.sessionId === mine) applySession(store, e.session);
      return;
    case 'warn':
      if (e.sessionId === mine) chat().warn = e.seconds;
      return;
    case 'ended':
      if (e.sessionId === mine) endedByRoom(store, e.reason);
      return;
    case 'safety': {
      const n = onSafety(e);
      if (n) notice(n.key, n.vars);
      return;
    }
    case 'error': {
      const n = safetyErrorNotice(e);
      if (n) return notice(n.key, n.vars);
      notice(`chat.roomError.${ROOM_ERRORS.has(e.code) ? e.code.replace(/^chat\./, '') : 'unknown'}`);
      return;
    }
    default:
      return;
  }
}

function applySession(store: RootState, s: SessionView): void {
  const before = chat().session;
  chat().session = s;
  if (store.user && typeof s.balance === 'number') store.user.coins = s.balance;
  if (before?.state === 'pending' && s.state === 'active') notice('chat.notice.accepted');
  // A running paid chat is remembered until this page sees it end (then the member knows).
  const show = chat().show;
  if (s.state === 'active' && before?.state !== 'active' && s.type !== 'free' && show) rememberRunning({ sessionId: s.sessionId, name: show.name, type: s.type });
  if (s.state === 'ended' && s.ended_reason) endedByRoom(store, s.ended_reason);
}

export function endedByRoom(store: RootState, reason: EndReason): void {
  if (chat().phase === 'ended' || chat().phase === 'idle') return;
  rememberRunning(null);
  conn.socket?.close();
  conn.socket = null;
  detachReceiver();
  // A voice-call chat without its session (the call ended, or the session is gone) goes home.
  if (chat().answer?.voicecall && (reason === 'call_ended' || reason === 'timeout')) return location.assign('/');
  chat().connected = false;
  chat().phase = 'ended';
  chat().ended = reason;
  const show = chat().show;
  if (show) refetchShow(store, show.id, CHAT_LOGOUT_REFETCH_MS);
}

/** Sends a line of the member (to the performer only in a running private or exclusive chat). */
export function sendLine(text: string): boolean {
  const trimmed = text.trim().slice(0, CHAT_TEXT_MAX);
  if (!trimmed || !conn.socket) return false;
  const s = chat().session;
  const privateLine = s?.state === 'active' && (s.type === 'private' || s.type === 'exclusive');
  return conn.socket.send(privateLine ? { t: 'say', text: trimmed, to: 'performer' } : { t: 'say', text: trimmed });
}

let lastTyping = 0;
/** Tells the room the member is typing (at most once per CHAT_TYPING_EVERY_MS). */
export function sendTyping(): void {
  const now = Date.now();
  if (now - lastTyping < CHAT_TYPING_EVERY_MS) return;
  lastTyping = now;
  conn.socket?.send({ t: 'typing' });
}

/** After a chat logout the show is refetched (after 1 s), so its live state is current. */
export function refetchShow(store: RootState, id: number, delay: number): void {
  setTimeout(() => {
    api()
      .get<ShowDetail>(`shows/${id}`)
      .then((s) => {
        store.live.online[id] = s.online === true;
      })
      .catch(() => undefined);
  }, delay);
}
