import { randomToken, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/clock';

export type TokenKind = 'verify' | 'reset' | 'login';
const LIFETIME: Record<TokenKind, number> = { verify: 3 * 86_400, reset: 3_600, login: 900 };

/**
 * A single-use token for a link mailed to `email`; only its hash is stored, with the address: the
 * link works only while the account still has that address.
 */
export async function issueToken(db: D1Database, userId: number, kind: TokenKind, email: string): Promise<string> {
  const token = randomToken(32);
  const now = nowSeconds();
  await db
    .prepare('INSERT INTO user_tokens (token_hash, user_id, kind, expires_at, created_at, email) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(await sha256Hex(token), userId, kind, now + LIFETIME[kind], now, email)
    .run();
  return token;
}

/** The token was mailed to the address the account has now (NOCASE, like users.email). */
const SENT_TO_CURRENT_ADDRESS = 'email = (SELECT u.email FROM users u WHERE u.id = user_tokens.user_id)';

/**
 * Marks the token used and returns its user id, or null if it is unknown, of another kind,
 * expired, already used, or mailed to an address the account no longer has. The UPDATE ... RETURNING makes a second use impossible even when
 * two requests race.
 */
export async function consumeToken(db: D1Database, token: string, kind: TokenKind, onlyUserId?: number): Promise<number | null> {
  const now = nowSeconds();
  // With onlyUserId, another member's token is refused without being used up.
  const row = await db
    .prepare(
      `UPDATE user_tokens SET used_at = ? WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ? AND (? IS NULL OR user_id = ?)
       AND ${SENT_TO_CURRENT_ADDRESS} RETURNING user_id`,
    )
    .bind(now, await sha256Hex(token), kind, now, onlyUserId ?? null, onlyUserId ?? null)
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

/**
 * The member of a verification token that was already used, when that member is verified: a
 * second click on the link is answered "already confirmed" instead of "invalid".
 */
export async function usedVerifyTokenUser(db: D1Database, token: string): Promise<number | null> {
  const row = await db
    .prepare(
      `SELECT t.user_id FROM user_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ? AND t.kind = 'verify' AND t.used_at IS NOT NULL AND u.is_verified = 1 AND u.cancelled_at IS NULL AND t.email = u.email`,
    )
    .bind(await sha256Hex(token))
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

/**
 * After a password reset or change: every outstanding reset (and login) link of the account is
 * used up, so a link mailed before cannot set the password again.
 */
export function revokeAccountLinks(db: D1Database, userId: number, now: number): D1PreparedStatement {
  return db
    .prepare("UPDATE user_tokens SET used_at = ? WHERE user_id = ? AND kind IN ('reset', 'login') AND used_at IS NULL")
    .bind(now, userId);
}

/** A new address: every link mailed before (to the old one) is used up. */
export function revokeMailedLinks(db: D1Database, userId: number, now: number): D1PreparedStatement {
  return db.prepare('UPDATE user_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL').bind(now, userId);
}

/** Ends every login of the account but the one whose token hash is `keepHash` (none with ''). */
export const endLoginsStatement = (db: D1Database, userId: number, keepHash = '') =>
  db.prepare('DELETE FROM auth_tokens WHERE user_id = ? AND token_hash <> ?').bind(userId, keepHash);
