import type { Bindings } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { roomOf } from '../chat/chat.service';
import { closeLobbyLogins } from '../../realtime/shards';
import { chatsOfEndedLogins, endChatRows, performerShowOf } from './logins.repo';

/** Which lobby sockets of the member go: all but the `keep` login's, or only the `only` login's. */
export interface EndedLogins {
  keep?: string | null;
  only?: string | null;
  /** A login whose sockets close without being told to log out: the page reconnects with its new cookies. */
  renewed?: string | null;
}

/**
 * Ends, at once, what the member's ended logins had open (call it after their auth tokens are
 * gone): their chats through the rooms that hold them (the minutes stop, both sides are told, the
 * sockets close), a performer's studio sockets, and their lobby sockets, which are told
 * user:logout first. Room tokens they were issued are refused from now on (chatroom.routes.ts).
 */
export async function endLogins(env: Bindings, userId: number, which: EndedLogins): Promise<void> {
  const db = env.DB;
  const [chats, stage] = await Promise.all([chatsOfEndedLogins(db, userId, nowSeconds()), performerShowOf(db, userId)]);
  const byShow = new Map<number, string[]>();
  for (const chat of chats) byShow.set(chat.show_id, [...(byShow.get(chat.show_id) ?? []), chat.id]);
  if (stage !== null && !byShow.has(stage)) byShow.set(stage, []);
  const ended = new Set(
    (await Promise.all([...byShow].map(([showId, ids]) => roomOf(env, showId).endLogin(userId, ids, showId === stage).catch(() => [] as string[])))).flat(),
  );
  await endChatRows(
    db,
    chats.map((chat) => chat.id).filter((id) => !ended.has(id)),
    Date.now(),
  );
  await closeLobbyLogins(env, userId, { keep: which.keep, only: which.only }, { type: 'user:logout' }).catch(() => undefined);
  if (which.renewed) await closeLobbyLogins(env, userId, { only: which.renewed }, null).catch(() => undefined);
}
