import { subscribe } from 'valtio';
import { CHAT_LOGOUT_REFETCH_MS, PRIVATE_START_DELAY_MS, type ChatSessionAnswer, type SessionType, type SessionView } from '../../../shared/chat';
import { CSRF_HEADER } from '../../../shared/constants';
import type { ShowDetail } from '../../../shared/shows';
import type { TFunction } from '../../../shared/translate';
import { api, ApiFailure, csrfToken } from '../../lib/api';
import { confirmDialog } from '../../state/actions';
import type { RootState } from '../../state/store';
import { openNicknameDialog } from '../account/profile-actions';
import { chat, chatErrorCode, conn, connect, refetchShow, reset, setHash } from './chat-state';
import type { ChatShow } from './chat.slice';
import { openExternal } from './external-actions';
import { leftChat, rememberRunning } from './chat-left';

// What the member does with the chat: start it (type, nickname, fresh show, session, room), tip,
// end it (with confirmation, or by beacon when the page goes away), close it and rate it.

let ratingCheck: Promise<void> | null = null;

/** An idempotency key per tip (the server books a retried tip with the same key once). */
function tipKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
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

/** The start flow: type and show chosen, nickname, fresh show info, session, then the room. */
export async function startChat(store: RootState, show: ChatShow, requested: SessionType): Promise<void> {
  if (chat().phase !== 'idle') return;
  const type: SessionType = requested === 'private' && show.exclusiveOnly ? 'exclusive' : requested;
  chat().alert = null;
  chat().rating = null;
  if (!store.user && type !== 'free') {
    // A guest asking for a paid chat signs up first.
    location.assign('/users/signup');
    return;
  }
  if (store.user && !currentNickname(store)) {
    openNicknameDialog(store);
    if (!(await nicknameChosen(store))) return;
  }
  chat().phase = 'starting';
  chat().show = show;
  chat().type = type;
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
  // A partner show (contentproviderId > 1): the session runs in the partner frame.
  if (answer.frame) return openExternal({ ...answer, frame: answer.frame }, show.name);
  chat().answer = answer;
  chat().type = answer.session_type;
  chat().phase = 'connecting';
  setHash(true);
  const paid = answer.session_type === 'private' || answer.session_type === 'exclusive';
  if (paid) await new Promise((r) => setTimeout(r, PRIVATE_START_DELAY_MS));
  if (chat().answer?.sessionId !== answer.sessionId) return;
  connect(store, answer);
}

function fail(store: RootState, code: string): void {
  reset();
  setHash(false);
  if (code === 'chat.not_verfified') {
    location.assign('/verify');
    return;
  }
  chat().alert = { code };
  const show = chat().show;
  if (show) refetchShow(store, show.id, 0);
}

export async function sendTip(store: RootState, coins: number): Promise<'ok' | string> {
  const answer = chat().answer;
  if (!answer || chat().tipBusy) return 'busy';
  chat().tipBusy = true;
  try {
    const res = await api().post<{ user?: { coins?: number } }>(`chatsession/tip/${encodeURIComponent(answer.sessionId)}`, { coins, key: tipKey() });
    if (store.user && typeof res?.user?.coins === 'number') store.user.coins = res.user.coins;
    return 'ok';
  } catch (e) {
    return chatErrorCode(e);
  } finally {
    chat().tipBusy = false;
  }
}

/** The member ends the chat: confirmation first, then the end call, then the rating check. */
export async function exitChat(store: RootState, t: TFunction): Promise<void> {
  if (chat().phase === 'ended') return closeChat(store);
  const ok = await confirmDialog(store, { title: t('chat.exit.title'), text: t('chat.exit.text'), confirmLabel: t('chat.exit.confirm') });
  if (!ok) return;
  const answer = chat().answer;
  if (answer) {
    await api()
      .post(`chatsession/end/${encodeURIComponent(answer.sessionId)}`)
      .catch(() => undefined);
  }
  const show = chat().show;
  if (show) refetchShow(store, show.id, CHAT_LOGOUT_REFETCH_MS);
  closeChat(store);
}

/** Closes the overlay; for members after a private or exclusive chat asks whether a rating is due. */
export function closeChat(store: RootState): void {
  const answer = chat().answer;
  const show = chat().show;
  rememberRunning(null);
  conn.socket?.close();
  conn.socket = null;
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
      chat().rating = {
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
  const r = chat().rating;
  if (!r || r.phase === 'saving' || percent <= 0) return;
  r.phase = 'saving';
  try {
    await api().post(`chatsession/rate_chat/${r.providerId}-${r.showId}/${encodeURIComponent(r.sessionId)}`, { rating: percent, comment });
    if (chat().rating === r) r.phase = 'thanks';
  } catch {
    if (chat().rating === r) r.phase = 'error';
  }
}

export function closeRating(): void {
  chat().rating = null;
}

export function closeAlert(): void {
  chat().alert = null;
}

/**
 * Back after leaving a paid chat without seeing its end: the end call makes sure it is over (the
 * page-hide beacon may have been lost) and answers what it cost, which the member is told.
 */
export async function checkLeftChat(): Promise<void> {
  const left = leftChat();
  if (!left || chat().phase !== 'idle') return;
  try {
    const res = await api().post<{ session: SessionView }>(`chatsession/end/${encodeURIComponent(left.sessionId)}`);
    rememberRunning(null);
    const s = res.session;
    if (s.state === 'ended' && s.minutes > 0) chat().left = { name: left.name, type: s.type, minutes: s.minutes, coins: s.coins };
  } catch (e) {
    // Another member's or an unknown session (404): nothing to tell; a network failure: try next time.
    if (e instanceof ApiFailure && e.status < 500) rememberRunning(null);
  }
}

export function closeLeft(): void {
  chat().left = null;
}

/** The page goes away: the session ends by beacon (the room token stands in for the CSRF header). */
export function endOnPageHide(): void {
  const answer = chat().answer;
  if (!answer || chat().phase === 'ended') return;
  // text/plain: a beacon with a JSON type would need a preflight; the server reads either.
  const body = new Blob([JSON.stringify({ password: answer.password })], { type: 'text/plain;charset=UTF-8' });
  const url = `/api/chatsession/end/${encodeURIComponent(answer.sessionId)}`;
  if (!navigator.sendBeacon?.(url, body)) {
    const token = csrfToken();
    void fetch(url, { method: 'POST', keepalive: true, credentials: 'same-origin', headers: { 'Content-Type': 'application/json', ...(token ? { [CSRF_HEADER]: token } : {}) }, body: JSON.stringify({ password: answer.password }) }).catch(() => undefined);
  }
  conn.socket?.close();
  conn.socket = null;
}
