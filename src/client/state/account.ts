import type { EmbeddedState } from '../../shared/state';
import type { User } from '../../shared/session';

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
