import type { EmbeddedState } from '../../shared/state';
import type { User } from '../../shared/session';

// The account slice: the member (null for visitors) and what sign-up and messages keep.

export interface AccountSlice {
  user: User | null;
  registerEmail: string | null;
  registerEmailGoogle: string | null;
  googleConsent: boolean;
  /** Unread message count pushed by user:mc. */
  messagesCount: number;
}

export const accountSlice = (init: EmbeddedState): AccountSlice => ({
  user: init.user,
  registerEmail: null,
  registerEmailGoogle: null,
  googleConsent: false,
  messagesCount: 0,
});
