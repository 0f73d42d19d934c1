import type { EmbeddedState } from '../../../shared/state';
import type { User } from '../../../shared/session';
import { onRealtime } from '../../lib/realtime-handlers';

// The account slice: the member (null for visitors) and what sign-up and messages keep.

export interface AccountSlice {
  user: User | null;
  registerEmail: string | null;
  registerEmailGoogle: string | null;
  googleConsent: boolean;
  /** The member's unread message count (features/messages/unread-count.ts keeps it in order). */
  messagesCount: number;
  /** How many member user:mc events arrived: each one makes the messages menu read the count. */
  messagesPushes: number;
  /** The performer's studio inbox unread count (user:mc with side studio). */
  studioMessagesCount: number;
  /** The operator inbox unread count (user:mc with side support). */
  supportMessagesCount: number;
  /** How many studio/support user:mc events arrived (an inbox reloads on each, even when the count is the same). */
  inboxPushes: number;
}

export const accountSlice = (init: EmbeddedState): AccountSlice => ({
  user: init.user,
  registerEmail: null,
  registerEmailGoogle: null,
  googleConsent: false,
  messagesCount: 0,
  messagesPushes: 0,
  studioMessagesCount: 0,
  supportMessagesCount: 0,
  inboxPushes: 0,
});

onRealtime('user:coins', (store, e) => {
  if (store.user && typeof e.coins === 'number') store.user.coins = e.coins;
});
// Every tab shows the visitor state at once (the login is already revoked on the server); no
// reload, so a tab in the middle of something is not torn away.
onRealtime('user:logout', (store) => {
  store.user = null;
});
onRealtime('user:avs', (store, e) => {
  store.session.agechecked = e.agechecked !== false;
});
onRealtime('user:mc', (store, e) => {
  if (typeof e.count !== 'number') return;
  if (e.side === 'studio' || e.side === 'support') {
    if (e.side === 'studio') store.studioMessagesCount = e.count;
    else store.supportMessagesCount = e.count;
    store.inboxPushes++;
  } else store.messagesPushes++; // the messages menu reads the count (in order: unread-count.ts)
});
