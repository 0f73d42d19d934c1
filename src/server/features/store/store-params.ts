import type { Context } from 'hono';
import { z } from 'zod';
import { RATING_STARS_MAX } from '../../../shared/store';
import type { AppEnv } from '../../env';

// Inputs of the store's calls. Path ids that are not ids answer 404 (nothing by that address);
// bodies are validated (422 with field errors).

/**
 * Who may see items that are not approved yet (reviewedFor in store.repo.ts): -1 an operator whose
 * login gave the second factor (every item), a performer their show's, anyone else none (0).
 */
export function seerOf(c: Context<AppEnv>): number {
  if (c.get('operator')?.secondFactorAt) return -1;
  return c.get('user')?.performer_show ?? 0;
}

/** A positive id (up to 9 digits), else null. */
export function pathId(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : null;
}

/** A ccid as the catalogue writes them (letters, digits, - and _), else null. */
export function pathCcid(value: string | undefined): string | null {
  return value && /^[A-Za-z0-9_-]{1,40}$/.test(value) ? value : null;
}

/** use_voucher: 0 or 1 (also as a string or boolean); missing: 0. */
export const buyBody = z.object({
  use_voucher: z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()])
    .optional()
    .transform((v) => v === 1 || v === '1' || v === true),
});

/** rating: 1..5 stars. */
export const rateBody = z.object({ rating: z.coerce.number().int().min(1).max(RATING_STARS_MAX) });
