import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';

/** The show id of the path, else 404 (hostile ids never reach SQL). */
export function pathShowId(c: Context<AppEnv>, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw new ApiError(404, 'not_found');
  return Number(raw);
}

/** For calls that carry nothing but the path: no body or `{}` (what the page's API layer sends), else 422. */
export async function requireNoBody(c: Context<AppEnv>): Promise<void> {
  const text = (await c.req.text()).trim();
  if (text === '' || /^\{\s*\}$/.test(text)) return;
  throw new ApiError(422, 'invalid_body');
}
