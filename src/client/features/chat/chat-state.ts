import { proxy, subscribe } from 'valtio';
import {
  CHAT_LOGOUT_REFETCH_MS,
  CHAT_TEXT_MAX,
  PRIVATE_START_DELAY_MS,
  type ChatLine,
  type ChatSessionAnswer,
  type EndReason,
  type Participant,
  type RoomEvent,
  type RoomSnapshot,
  type SessionType,
  type SessionView,
} from '../../../shared/chat';
import { CSRF_HEADER } from '../../../shared/constants';
import type { ShowDetail } from '../../../shared/shows';
import { api, ApiFailure, csrfToken } from '../../lib/api';
import { confirmDialog } from '../../state/actions';
import type { RootState } from '../../state/store';
import type { TFunction } from '../../../shared/translate';
import { openNicknameDialog } from '../account/profile-actions';
import { openRoom, type RoomSocket } from './room-socket';

// The viewer's chat on a show page: the start flow (type, nickname, fresh show, session, socket),
// the room's events, the end (by the member, the performer, the coins or the page going away) and
// the rating afterwards. One chat per document, in this module's proxy.

export const ENTER_CHAT_HASH = '#enter_chat';
const LINES_KEPT = 200;
const TYPING_SHOWN_MS = 4_000;
/** Room error codes with their own text (others read as 'unknown'). */
const ROOM_ERRORS = new Set(['chat.muted', 'chat.rate_limited', 'chat.empty', 'chat.no_private', 'chat.session_ended']);

export interface ChatShow {
  id: number;
  universalId: string;
  contentproviderId: number;
  name: string;
  exclusiveOnly: boolean;
}

export type ChatPhase = 'idle' | 'starting' | 'connecting' | 'live' | 'ended';

/** A line of the chat as the overlay shows it: a room line, a tip or a notice of ours. */
export type ChatItem =
  | { kind: 'line'; line: ChatLine }
  | { kind: 'tip'; id: string; nick: string; coins: number; mine: boolean }
  | { kind: 'notice'; id: string; key: string; vars?: Record<string, string | number> };

export interface ChatAlert {
  /** The catalogue code ('chat.no_coins', ...) or SESSION_ERR_UNEXPECTED. */
  code: string;
}

export interface RatingState {
  sessionId: string;
  providerId: number;
  showId: number;
  showName: string;
  phase: 'ask' | 'saving' | 'thanks' | 'error';
}

export interface ChatState {
  phase: ChatPhase;
  show: ChatShow | null;
  type: SessionType;
  answer: ChatSessionAnswer | null;
  me: Participant | null;
  room: RoomSnapshot | null;
  session: SessionView | null;
  items: ChatItem[];
  typing: { nick: string; until: number } | null;
  connected: boolean;
  /** Seconds of coins left when the room warned (one minute before they run out). */
  warn: number | null;
  ended: EndReason | null;
  alert: ChatAlert | null;
  rating: RatingState | null;
  tipBusy: boolean;
}

export const chat = proxy<ChatState>({
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
});

let socket: RoomSocket | null = null;
let noticeSeq = 0;
let ratingCheck: Promise<void> | null = null;

declare global {
  interface Window {
    /** Tests: drop the room socket to see the chat rejoin its session. */
    __chatSocket?: RoomSocket | null;
  }
}

function setHash(on: boolean): void {
  const has = location.hash === ENTER_CHAT_HASH;
  if (on && !has) history.replaceState(history.state, '', location.pathname + location.search + ENTER_CHAT_HASH);
  if (!on && has) history.replaceState(history.state, '', location.pathname + location.search);
}

function currentNickname(store: RootState): string | null {
  const u = store.user;
  if (!u) return null;
  return u.nicknames.data.find((n) => n.id === u.nicknames.current_nickname)?.nickname ?? null;
}

/** A guest's temporary nickname for this tab (kept across reloads), so the performer tells guests apart. */
function guestNickname(): string {
  try {
    let nick = sessionStorage.getItem('guest_nick');
    if (!nick) {
      nick = `guest${Math.floor(1000 + Math.random() * 9000)}`;
      sessionStorage.setItem('guest_nick', nick);
    }
    return nick;
  } catch {
    return 'guest';
  }
}

/** Waits for the nickname dialog to close; true when the member has a nickname then. */
function nicknameChosen(store: RootState): Promise<boolean> {
  return new Promise((resolve) => {
    const stop = subscribe(store.ui, () => {
      if (store.ui.nicknameDialog) return;
      stop();
      resolve(currentNickname(store) !== null);
    });
  });
}

function notice(key: string, vars?: Record<string, string | number>): void {
  pushItem({ kind: 'notice', id: `n${++noticeSeq}`, key, vars });
}

function pushItem(item: ChatItem): void {
  chat.items.push(item);
  if (chat.items.length > LINES_KEPT) chat.items.splice(0, chat.items.length - LINES_KEPT);
}

function reset(): void {
  chat.phase = 'idle';
  chat.answer = null;
  chat.me = null;
  chat.room = null;
  chat.session = null;
  chat.items = [];
  chat.typing = null;
  chat.connected = false;
  chat.warn = null;
  chat.ended = null;
  chat.tipBusy = false;
  // Closing the chat resets the requested type to private.
  chat.type = 'private';
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

/** The start flow: type and show chosen, nickname, fresh show info, session, then the room. */
export async function startChat(store: RootState, show: ChatShow, requested: SessionType): Promise<void> {
  if (chat.phase !== 'idle') return;
  const type: SessionType = requested === 'private' && show.exclusiveOnly ? 'exclusive' : requested;
  chat.alert = null;
  chat.rating = null;
  if (!store.user && type !== 'free') {
    // A guest asking for a paid chat signs up first.
    location.assign('/users/signup');
    return;
  }
  if (store.user && !currentNickname(store)) {
    openNicknameDialog(store);
    if (!(await nicknameChosen(store))) return;
  }
  chat.phase = 'starting';
  chat.show = show;
  chat.type = type;
  try {
    const fresh = await api().get<ShowDetail>(`shows/${show.id}`);
    store.live.online[show.id] = fresh.online === true;
    if (!fresh.online) return fail(store, 'chat.show_not_available');
  } catch {
    // The session call below answers with the show's state anyway.
  }
  let answer: ChatSessionAnswer;
  try {
    answer = await api().post<ChatSessionAnswer>(`chatsession/${encodeURIComponent(show.universalId)}`, { type, nickname: currentNickname(store) ?? guestNickname() });
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 401) {
      reset();
      if (!store.user) location.assign('/users/signup');
      return;
    }
    return fail(store, chatErrorCode(e));
  }
  chat.answer = answer;
  chat.type = answer.session_type;
  chat.phase = 'connecting';
  setHash(true);
  const paid = answer.session_type === 'private' || answer.session_type === 'exclusive';
  if (paid) await new Promise((r) => setTimeout(r, PRIVATE_START_DELAY_MS));
  if (chat.answer?.sessionId !== answer.sessionId) return;
  connect(store, answer);
}

function fail(store: RootState, code: string): void {
  reset();
  setHash(false);
  if (code === 'chat.not_verfified') {
    location.assign('/verify');
    return;
  }
  chat.alert = { code };
  const show = chat.show;
  if (show) refetchShow(store, show.id, 0);
}

function connect(store: RootState, answer: ChatSessionAnswer): void {
  socket?.close();
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
  socket = openRoom(creds, {
    status: (open) => {
      if (chat.answer?.sessionId === answer.sessionId) chat.connected = open;
    },
    event: (e) => {
      if (chat.answer?.sessionId === answer.sessionId) onEvent(store, e);
    },
  });
  window.__chatSocket = socket;
}

function onEvent(store: RootState, e: RoomEvent): void {
  const mine = chat.answer?.sessionId;
  switch (e.t) {
    case 'welcome': {
      chat.me = e.me;
      chat.room = e.room;
      // A rejoin brings the history again: keep our tips and notices, take the room's lines.
      const extras = chat.items.filter((i) => i.kind !== 'line');
      chat.items = [...e.history.map((line): ChatItem => ({ kind: 'line', line })), ...extras];
      if (e.session) applySession(store, e.session);
      if (chat.phase === 'connecting') chat.phase = 'live';
      return;
    }
    case 'room':
      chat.room = e.room;
      return;
    case 'line':
      if (chat.items.some((i) => i.kind === 'line' && i.line.id === e.line.id)) return;
      pushItem({ kind: 'line', line: e.line });
      if (chat.typing?.nick === e.line.nick) chat.typing = null;
      return;
    case 'typing':
      if (e.from !== chat.me?.id) chat.typing = { nick: e.nick, until: Date.now() + TYPING_SHOWN_MS };
      return;
    case 'session':
      if (e.session.sessionId === mine) applySession(store, e.session);
      return;
    case 'warn':
      if (e.sessionId === mine) chat.warn = e.seconds;
      return;
    case 'ended':
      if (e.sessionId === mine) endedByRoom(store, e.reason);
      return;
    case 'tip':
      pushItem({ kind: 'tip', id: `t${e.ts}-${e.from}`, nick: e.nick, coins: e.coins, mine: e.from === chat.me?.id });
      return;
    case 'error':
      notice(`chat.roomError.${ROOM_ERRORS.has(e.code) ? e.code.replace(/^chat\./, '') : 'unknown'}`);
      return;
    default:
      return;
  }
}

function applySession(store: RootState, s: SessionView): void {
  const before = chat.session;
  chat.session = s;
  if (store.user && typeof s.balance === 'number') store.user.coins = s.balance;
  if (before?.state === 'pending' && s.state === 'active') notice('chat.notice.accepted');
  if (s.state === 'ended' && s.ended_reason) endedByRoom(store, s.ended_reason);
}

function endedByRoom(store: RootState, reason: EndReason): void {
  if (chat.phase === 'ended' || chat.phase === 'idle') return;
  socket?.close();
  socket = null;
  chat.connected = false;
  chat.phase = 'ended';
  chat.ended = reason;
  if (chat.show) refetchShow(store, chat.show.id, CHAT_LOGOUT_REFETCH_MS);
}

/** After a chat logout the show is refetched (after 1 s), so its live state is current. */
function refetchShow(store: RootState, id: number, delay: number): void {
  setTimeout(() => {
    api()
      .get<ShowDetail>(`shows/${id}`)
      .then((s) => {
        store.live.online[id] = s.online === true;
      })
      .catch(() => undefined);
  }, delay);
}

export function sendLine(text: string): boolean {
  const trimmed = text.trim().slice(0, CHAT_TEXT_MAX);
  if (!trimmed || !socket) return false;
  // In a running private or exclusive chat the lines go to the performer only.
  const s = chat.session;
  const privateLine = s?.state === 'active' && (s.type === 'private' || s.type === 'exclusive');
  return socket.send(privateLine ? { t: 'say', text: trimmed, to: 'performer' } : { t: 'say', text: trimmed });
}

let lastTyping = 0;
export function sendTyping(): void {
  const now = Date.now();
  if (now - lastTyping < 2_000) return;
  lastTyping = now;
  socket?.send({ t: 'typing' });
}

export async function sendTip(store: RootState, coins: number): Promise<'ok' | string> {
  const answer = chat.answer;
  if (!answer || chat.tipBusy) return 'busy';
  chat.tipBusy = true;
  try {
    const res = await api().post<{ user?: { coins?: number } }>(`chatsession/tip/${encodeURIComponent(answer.sessionId)}`, { coins });
    if (store.user && typeof res?.user?.coins === 'number') store.user.coins = res.user.coins;
    return 'ok';
  } catch (e) {
    return chatErrorCode(e);
  } finally {
    chat.tipBusy = false;
  }
}

/** The member ends the chat: confirmation first, then the end call, then the rating check. */
export async function exitChat(store: RootState, t: TFunction): Promise<void> {
  if (chat.phase === 'ended') return closeChat(store);
  const ok = await confirmDialog(store, { title: t('chat.exit.title'), text: t('chat.exit.text'), confirmLabel: t('chat.exit.confirm') });
  if (!ok) return;
  const answer = chat.answer;
  if (answer) {
    await api()
      .post(`chatsession/end/${encodeURIComponent(answer.sessionId)}`)
      .catch(() => undefined);
  }
  if (chat.show) refetchShow(store, chat.show.id, CHAT_LOGOUT_REFETCH_MS);
  closeChat(store);
}

/** Closes the overlay; for members after a private or exclusive chat asks whether a rating is due. */
export function closeChat(store: RootState): void {
  const answer = chat.answer;
  const show = chat.show;
  socket?.close();
  socket = null;
  window.__chatSocket = null;
  reset();
  setHash(false);
  if (answer && show && store.user && (answer.session_type === 'private' || answer.session_type === 'exclusive')) {
    void checkRating(show);
  }
}

function checkRating(show: ChatShow): Promise<void> {
  // Only one rating check at a time.
  ratingCheck ??= api()
    .post<{ rating?: unknown; sessionId?: string; contentProviderId?: number; showId?: number }>(`chatsession/check_rating/${encodeURIComponent(show.universalId)}`)
    .then((res) => {
      if (!res?.rating || !res.sessionId) return;
      chat.rating = {
        sessionId: res.sessionId,
        providerId: res.contentProviderId ?? show.contentproviderId,
        showId: res.showId ?? show.id,
        showName: show.name,
        phase: 'ask',
      };
    })
    .catch(() => undefined)
    .finally(() => {
      ratingCheck = null;
    });
  return ratingCheck;
}

export async function saveRating(percent: number, comment: string): Promise<void> {
  const r = chat.rating;
  if (!r || r.phase === 'saving' || percent <= 0) return;
  r.phase = 'saving';
  try {
    await api().post(`chatsession/rate_chat/${r.providerId}-${r.showId}/${encodeURIComponent(r.sessionId)}`, { rating: percent, comment });
    if (chat.rating === r) r.phase = 'thanks';
  } catch {
    if (chat.rating === r) r.phase = 'error';
  }
}

export function closeRating(): void {
  chat.rating = null;
}

export function closeAlert(): void {
  chat.alert = null;
}

/** The page goes away: the session ends by beacon (the room token stands in for the CSRF header). */
export function endOnPageHide(): void {
  const answer = chat.answer;
  if (!answer || chat.phase === 'ended') return;
  // text/plain: a beacon with a JSON type would need a preflight; the server reads either.
  const body = new Blob([JSON.stringify({ password: answer.password })], { type: 'text/plain;charset=UTF-8' });
  const url = `/api/chatsession/end/${encodeURIComponent(answer.sessionId)}`;
  if (!navigator.sendBeacon?.(url, body)) {
    const token = csrfToken();
    void fetch(url, { method: 'POST', keepalive: true, credentials: 'same-origin', headers: { 'Content-Type': 'application/json', ...(token ? { [CSRF_HEADER]: token } : {}) }, body: JSON.stringify({ password: answer.password }) }).catch(() => undefined);
  }
  socket?.close();
  socket = null;
}

/** Minutes since the paid session started (running, for the chat bar). */
export function runningMinutes(s: SessionView | null, now: number): number {
  if (!s?.started_at) return 0;
  return Math.max(0, Math.floor((now - s.started_at) / 60_000));
}
