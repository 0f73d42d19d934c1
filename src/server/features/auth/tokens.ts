import { randomToken, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/auth';

export type TokenKind = 'verify' | 'reset' | 'login';
const LIFETIME: Record<TokenKind, number> = { verify: 3 * 86_400, reset: 3_600, login: 900 };

/** A single-use token for a mailed link; only its hash is stored. */
export async function issueToken(db: D1Database, userId: number, kind: TokenKind): Promise<string> {
  const token = randomToken(32);
  const now = nowSeconds();
  await db
    .prepare('INSERT INTO user_tokens (token_hash, user_id, kind, expires_at, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(await sha256Hex(token), userId, kind, now + LIFETIME[kind], now)
    .run();
  return token;
}

/**
 * Marks the token used and returns its user id, or null if it is unknown, of another kind,
 * expired or already used. The UPDATE ... RETURNING makes a second use impossible even when
 * two requests race.
 */
export async function consumeToken(db: D1Database, token: string, kind: TokenKind, onlyUserId?: number): Promise<number | null> {
  const now = nowSeconds();
  // With onlyUserId, another member's token is refused without being used up.
  const row = await db
    .prepare(
      'UPDATE user_tokens SET used_at = ? WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ? AND (? IS NULL OR user_id = ?) RETURNING user_id',
    )
    .bind(now, await sha256Hex(token), kind, now, onlyUserId ?? null, onlyUserId ?? null)
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}
