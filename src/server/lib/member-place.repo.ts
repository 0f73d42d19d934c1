import type { GeoPlace } from '../../shared/geo';

// Geo-blocking (issue 30 point 3): the member's last known place (users.geo_*, migration 0040),
// recorded when the member logs in and when one of the member's browsers subscribes to or renews
// Web Push. A favourite going online is not pushed or mailed to a member whose last place the
// show is hidden from (favorites.repo.ts claimNotices). An unknown place records nothing: the
// last known one stays.

/** The UPDATE recording `place` for the member (null for an unknown place), to batch with other writes. */
export function recordPlaceStatement(db: D1Database, userId: number, place: GeoPlace | undefined, now: number): D1PreparedStatement | null {
  if (!place?.country) return null;
  return db.prepare('UPDATE users SET geo_country = ?2, geo_region = ?3, geo_at = ?4 WHERE id = ?1').bind(userId, place.country, place.region, now);
}

/** Records the place of the member whose browser holds the push subscription at `endpoint`. */
export async function recordPlaceOfEndpoint(db: D1Database, endpoint: string, place: GeoPlace | undefined, now: number): Promise<void> {
  if (!place?.country) return;
  await db
    .prepare('UPDATE users SET geo_country = ?2, geo_region = ?3, geo_at = ?4 WHERE id = (SELECT user_id FROM push_subscriptions WHERE endpoint = ?1)')
    .bind(endpoint, place.country, place.region, now)
    .run();
}
