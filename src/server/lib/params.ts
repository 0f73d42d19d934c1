import { z } from 'zod';
import { SHOWS_PAGE_SIZE } from '../../shared/constants';
import { parsePage } from '../../shared/pagination';

// Query and path parameters of the lists. Lists never refuse a malformed page, size or filter id
// (links get cut and edited): each falls back to its default instead of a 422.

const digits = (max: number) => z.string().regex(new RegExp(`^\\d{1,${max}}$`)).transform(Number);

/** A numeric id, else null. */
export const idParam = digits(9).nullable().catch(null);

/** A list size from 1 to `max`, else `fallback`. */
export const limitParam = (max = SHOWS_PAGE_SIZE, fallback = max) => digits(4).transform((n) => Math.min(max, Math.max(1, n))).catch(fallback);

/** A page number (1 when missing or malformed). */
export const pageParam = z.string().optional().catch(undefined).transform((v) => parsePage(v));
