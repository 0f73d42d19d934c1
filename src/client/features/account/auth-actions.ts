import type { Session, User } from '../../../shared/session';
import { api } from '../../lib/api';
import type { RootState } from '../../state/store';
import { endPushOnLogout } from '../push/push-browser';

export interface AuthAnswer {
  user: User;
  session: Session;
}

/** Applies a successful login, registration or verification to the shared store. */
export function applyAuth(store: RootState, res: AuthAnswer): void {
  store.user = res.user;
  store.session = res.session;
  store.visibility.login = false;
}

/** Full navigation (the server renders the next page with the new login). */
export function go(to: string): void {
  location.assign(to);
}

/**
 * Logs out (POST auth/logout, which also rotates the session and CSRF cookies), forgets the
 * member and goes home. Only ever on the member's own click.
 */
export async function logOutAndLeave(store: RootState): Promise<void> {
  await endPushOnLogout();
  await api()
    .post('auth/logout')
    .catch(() => undefined);
  store.user = null;
  store.registerEmail = null;
  go('/');
}
