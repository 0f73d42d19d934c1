import { CHAT_LOGOUT_REFETCH_MS, EXTERNAL_EXTEND_MS, type ChatSessionAnswer } from '../../../shared/chat';
import { CSRF_HEADER } from '../../../shared/constants';
import type { TFunction } from '../../../shared/translate';
import { api, ApiFailure, csrfToken } from '../../lib/api';
import { confirmDialog } from '../../state/actions';
import { appStore } from '../../state/app-store';
import type { RootState } from '../../state/store';
import { chat, refetchShow, reset, setHash } from './chat-state';

// A partner show's chat (contentproviderId > 1) on the show page: the session was created by the
// same start flow, and runs in the partner frame. While it runs the page extends its lease every
// 10 s and stops on 422 (the chat ended); page hide ends it by beacon, the close button by call.

/** The message the frame posts to the show page when its session ended. */
export const FRAME_ENDED = 'livecam:external-ended';

/** The document's partner chat (the chat slice, chat.slice.ts); actions run in the browser only. */
const external = () => appStore().externalChat;

let timer: ReturnType<typeof setInterval> | null = null;
let extending = false;

function stopExtending(): void {
  if (timer) clearInterval(timer);
  timer = null;
}

/** The chat is over (422 on extend, the frame's end, page hide): no more extend calls. */
export function markEnded(): void {
  stopExtending();
  external().ended = true;
}

async function extend(): Promise<void> {
  const id = external().sessionId;
  if (!id || external().ended || extending) return;
  extending = true;
  try {
    await api().post('chat/external/extend', { sessionId: id });
    if (external().sessionId === id) external().extends++;
  } catch (e) {
    // 422: ended, unknown or not ours any more: stop. Anything else (offline for a moment): try again next time.
    if (e instanceof ApiFailure && e.status === 422 && external().sessionId === id) markEnded();
  } finally {
    extending = false;
  }
}

function onPageHide(): void {
  const id = external().sessionId;
  if (!id || external().ended) return;
  markEnded();
  // text/plain: a beacon with a JSON type would need a preflight; the server reads either.
  const url = '/api/chat/external/end?beacon=1';
  const body = JSON.stringify({ sessionId: id });
  if (!navigator.sendBeacon?.(url, new Blob([body], { type: 'text/plain;charset=UTF-8' }))) {
    const token = csrfToken();
    void fetch('/api/chat/external/end', { method: 'POST', keepalive: true, credentials: 'same-origin', headers: { 'Content-Type': 'application/json', ...(token ? { [CSRF_HEADER]: token } : {}) }, body }).catch(() => undefined);
  }
}

/** The start flow's answer was a partner session: show its frame and keep its lease. */
export function openExternal(answer: ChatSessionAnswer & { frame: string }, showName: string): void {
  stopExtending();
  chat().phase = 'external';
  Object.assign(external(), { frame: answer.frame, sessionId: answer.sessionId, showId: answer.showId, showName, ended: false, extends: 0 });
  setHash(true);
  timer = setInterval(() => void extend(), EXTERNAL_EXTEND_MS);
  window.removeEventListener('pagehide', onPageHide);
  window.addEventListener('pagehide', onPageHide);
}

/** The member closes the partner chat: confirmation while it runs, then the end call. */
export async function closeExternal(store: RootState, t: TFunction): Promise<void> {
  const id = external().sessionId;
  if (id && !external().ended) {
    const ok = await confirmDialog(store, { title: t('chat.exit.title'), text: t('chat.exit.text'), confirmLabel: t('chat.exit.confirm') });
    if (!ok) return;
    markEnded();
    await api()
      .post('chat/external/end', { sessionId: id })
      .catch(() => undefined);
  }
  stopExtending();
  window.removeEventListener('pagehide', onPageHide);
  const showId = external().showId;
  Object.assign(external(), { frame: null, sessionId: null, ended: false });
  reset();
  setHash(false);
  if (showId) refetchShow(store, showId, CHAT_LOGOUT_REFETCH_MS);
}
