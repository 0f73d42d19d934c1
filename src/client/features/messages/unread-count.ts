import { subscribeKey } from 'valtio/utils';
import type { RootState } from '../../state/store';
import { messagesApi } from './messages-api';
import type { Counts } from '../../../shared/messages';

// The member's unread count comes from many places at once: the answers of read, unread,
// read-all, block and send, the 60 s poll, and a GET after every user:mc push. Their answers can
// arrive out of order (a push or poll that read the database before a read-all can land after
// it), so each call takes a ticket when it starts and an answer only counts when no later-started
// call has answered yet. A push never sets the count itself: it starts a GET, which reads the
// database after the change the push announces, so the last call started always has the truth.

let started = 0;
let applied = 0;

/** Runs a call that answers with counts; its `all` becomes the badge unless a later call answered first. */
export async function withCount<T>(store: RootState, call: () => Promise<T>, countsOf: (res: T) => Counts | null | undefined = (r) => r as Counts): Promise<T> {
  const ticket = ++started;
  const res = await call();
  const counts = countsOf(res);
  if (ticket > applied && typeof counts?.all === 'number') {
    applied = ticket;
    if (store.user) store.messagesCount = counts.all;
  }
  return res;
}

/** Asks the server for the count (after a push, on load, every 60 s); failures wait for the next one. */
export function refreshCount(store: RootState): Promise<unknown> {
  return withCount(store, () => messagesApi.count()).catch(() => undefined);
}

let followers = 0;
let unfollow: (() => void) | null = null;

/**
 * Reads the count after every user:mc push while any island that shows it is mounted (the top
 * bar's menu, the messages pages: a page with the header hidden has only the latter), once per push.
 */
export function followCount(store: RootState): () => void {
  if (followers++ === 0) unfollow = subscribeKey(store, 'messagesPushes', () => void refreshCount(store));
  return () => {
    if (--followers === 0) {
      unfollow?.();
      unfollow = null;
    }
  };
}
