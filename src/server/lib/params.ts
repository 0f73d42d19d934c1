import { SHOWS_PAGE_SIZE } from '../../shared/constants';

/** A list size from the query: 1 to `max`, else `fallback`. */
export function parseLimit(value: string | undefined, max = SHOWS_PAGE_SIZE, fallback = max): number {
  if (!value || !/^\d{1,4}$/.test(value)) return fallback;
  return Math.min(max, Math.max(1, Number(value)));
}

/** A numeric id from a path or query parameter, else null. */
export function parseId(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}
