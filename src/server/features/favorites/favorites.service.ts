import type { Locale } from '../../../shared/constants';
import { withoutHidden } from '../../lib/geo-hidden';
import type { FavoriteOnlineEvent } from '../../../shared/favorites';
import type { ShowStatus } from '../../../shared/realtime';
import { showHref } from '../../../shared/shows';
import type { Bindings } from '../../env';
import { mailOrigin } from '../../lib/config';
import { actionMail } from '../../lib/mail-templates';
import { mailerFor } from '../../lib/mailer';
import { publishToUser } from '../../realtime/shards';
import { pushToMember } from '../push/push.service';
import { claimNotices, favoriteIds, listFavorites } from './favorites.repo';

/** The ids of the member's favourite shows (one query), for marking isFavorite in lists. */
export async function favoriteShowIds(db: D1Database, userId: number | null): Promise<Set<number>> {
  if (userId === null) return new Set();
  return new Set(await favoriteIds(db, userId));
}

/** The member's favourites (the profile's favourites tab renders them on the server). */
/** The member's favourites, without those hidden from their place (geo-blocking). */
export const memberFavorites = async (db: D1Database, userId: number, hidden: readonly number[] = []) => withoutHidden(await listFavorites(db, userId), hidden, (f) => f.show_id);

/** Marks the member's favourites in a list of shows (isFavorite true, others false). */
export function markFavorites<T extends { id: number; isFavorite?: boolean }>(shows: T[], ids: Set<number>): T[] {
  if (ids.size === 0) return shows;
  return shows.map((s) => (ids.has(s.id) ? { ...s, isFavorite: true } : s));
}

/**
 * Shows went online: tells every member whose favourite window holds now, once per show and
 * window (the notice row claimed atomically), in every open tab (`user:favorite_online`), by push
 * notification and by e-mail (neither to a member whose last known place the show is hidden
 * from, docs/geo-blocking.md). Runs after the status fan-out (callers defer it with waitUntil), so it never slows it.
 */
export async function notifyFavoritesOnline(env: Bindings, showIds: number[], nowMs = Date.now()): Promise<number> {
  if (showIds.length === 0) return 0;
  const notices = await claimNotices(env.DB, showIds, nowMs);
  const origin = mailOrigin(env);
  await Promise.all(
    notices.map(async (n) => {
      const href = showHref({ id: n.show_id, slugName: n.slug_name });
      const event: FavoriteOnlineEvent = { type: 'user:favorite_online', showId: n.show_id, name: n.show_name, slugName: n.slug_name };
      await publishToUser(env, n.user_id, event).catch(() => undefined);
      // Geo-blocking: the member's last known place does not see the show. The lobby event above
      // reaches only the member's sockets from places that see it (LobbyHub.toUser).
      if (n.place_hidden) return;
      // The member's opted-in browsers (Web Push), when the member keeps this kind on.
      await pushToMember(env, n.user_id, 'favorite_online', { key: 'favoriteOnline', vars: { show: n.show_name }, url: href, tag: `show-${n.show_id}` }).catch(() => 0);
      if (!origin) return;
      const locale: Locale = n.locale === 'de' ? 'de' : 'en';
      await mailerFor(env)
        .send(actionMail('favorite', locale, n.email, { name: n.user_name, link: `${origin}${href}`, show: n.show_name }))
        .catch((e: unknown) => console.error(JSON.stringify({ type: 'favorite_mail_failed', error: String(e) })));
    }),
  );
  return notices.length;
}

/**
 * The development simulator's shows that went online notify their favourites too (after the push,
 * deferred so it never holds up the next tick); src/server/index.ts registers it with the lobby hub.
 */
export async function notifySimulatedOnline(env: Bindings, changes: ShowStatus[], defer: (work: Promise<unknown>) => void): Promise<void> {
  const online = changes.filter((c) => c.online).map((c) => c.id);
  if (online.length) defer(notifyFavoritesOnline(env, online).catch(() => undefined));
}
