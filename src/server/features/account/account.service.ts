import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { mailOrigin } from '../../lib/config';
import { ApiError } from '../../lib/errors';
import { nameTaken } from './account.repo';

/**
 * Origin for links in mails: PUBLIC_ORIGIN (in development the dev origin), never the request's
 * Host. Without it in production nothing may be mailed: 503 mail_unavailable, before any work.
 */
export function publicOrigin(c: Context<AppEnv>): string {
  const origin = mailOrigin(c.env);
  if (!origin) throw new ApiError(503, 'mail_unavailable');
  return origin;
}

/** A free username derived from `base` (Latin letters, digits, dot, underscore, hyphen; 3 to 30). */
export async function uniqueUsername(db: D1Database, base: string): Promise<string> {
  // NFKD splits accents off (Jürgen -> Jurgen); what is still not Latin is dropped (shared/account-rules.ts).
  let stem = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '')
    .slice(0, 24);
  if (stem.length < 3) stem = `member${stem}`;
  if (!(await nameTaken(db, stem))) return stem;
  for (let i = 0; i < 20; i++) {
    const candidate = `${stem}${Math.floor(1000 + Math.random() * 9000)}`;
    if (!(await nameTaken(db, candidate))) return candidate;
  }
  return `${stem}${Date.now()}`.slice(0, 30);
}
