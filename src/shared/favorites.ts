// Favourites and history (issue 14; spec part 2 sections 3, 4, 5, 7, 9): wire types, limits and
// the notification window rules both sides use.

/** Spec 9: favourites are polled every 60 s (the realtime event is the fast path). */
export const FAVORITE_POLL_MS = 60_000;
/** Spec 5 and 9: notification times are minutes of the day in steps of 15. */
export const FAVORITE_MINUTES_STEP = 15;
export const MINUTES_PER_DAY = 1440;
/** The most favourites one member keeps (reserved in the INSERT itself). */
export const FAVORITES_MAX = 200;
/** The most history entries kept per member (older ones are trimmed in the same batch). */
export const HISTORY_MAX = 50;

/** null: notifications off; daily: all day (midnight for both times); timespan: start to end. */
export type FavoriteInfoType = 'daily' | 'timespan' | null;

/**
 * Spec 3 "Favourite". id and show_id are both the show's id (a member favours a show once).
 * info_start / info_end are minutes of the day in UTC (the page shows and takes them in the
 * browser's time zone and converts); a timespan may wrap past midnight.
 */
export interface Favorite {
  id: number;
  universalId: string;
  show_id: number;
  contentprovider_id: number;
  name: string;
  slugName: string;
  online: boolean;
  info_type: FavoriteInfoType;
  info_start: number | null;
  info_end: number | null;
}

export interface FavoritesAnswer {
  data: Favorite[];
  /** How many of them are online now (the top bar badge). */
  online: number;
}

/** PUT favorites/{id} (and optionally POST): both null = off, both 0 = daily, else a timespan. */
export interface FavoriteUpdate {
  id: number;
  info_start: number | null;
  info_end: number | null;
}

export interface HistoryItem {
  id: number;
  universalId: string;
  name: string;
  slugName: string;
  online: boolean;
  visited_at: number;
}

export interface HistoryAnswer {
  data: HistoryItem[];
}

/** The realtime event when a favourite goes online inside the member's window. */
export interface FavoriteOnlineEvent {
  type: 'user:favorite_online';
  showId: number;
  name: string;
  slugName: string;
}

/** The type a stored window means: both null off, both 0 daily, else timespan. */
export function infoTypeOf(start: number | null, end: number | null): FavoriteInfoType {
  if (start === null && end === null) return null;
  if (start === 0 && end === 0) return 'daily';
  return 'timespan';
}

export function validMinute(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MINUTES_PER_DAY && v % FAVORITE_MINUTES_STEP === 0;
}

/** Field errors of a window (codes under errors.*), empty when valid. */
export function windowErrors(start: unknown, end: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if ((start === null || start === undefined) && (end === null || end === undefined)) return out;
  if (start === null || start === undefined) out.info_start = ['favorites.time_required'];
  else if (!validMinute(start)) out.info_start = ['favorites.time_step'];
  if (end === null || end === undefined) out.info_end = ['favorites.time_required'];
  else if (!validMinute(end)) out.info_end = ['favorites.time_step'];
  if (!out.info_start && !out.info_end && start === end && start !== 0) out.info_end = ['favorites.time_same'];
  return out;
}

/** Minutes of the day shifted by an offset (local <-> UTC), wrapped into 0..1439. */
export function shiftMinutes(minutes: number, by: number): number {
  return (((minutes + by) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
}

/** Whether `minute` (UTC minute of the day) lies in the window [start, end), wrapping at midnight. */
export function inWindow(type: FavoriteInfoType, start: number, end: number, minute: number): boolean {
  if (type === 'daily') return true;
  if (type !== 'timespan') return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}
