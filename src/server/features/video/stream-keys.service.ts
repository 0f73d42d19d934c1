import { nowSeconds } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { putStreamKey, showOfKeyHash, streamKeyCreatedAt } from './stream-keys.repo';

// A show's stream key for OBS over WHIP (issue 28; migration 0026): made in the studio and shown
// there once; only its SHA-256 is stored. A new key replaces the old, which stops working at once.

/** What a key looks like (so a performer can tell it from other secrets): `sk_` and 43 random characters. */
const KEY_PREFIX = 'sk_';

/** A new key for the show (the old one, if any, no longer opens anything). Answers the key: it is not kept. */
export async function newStreamKey(db: D1Database, showId: number): Promise<{ key: string; createdAt: number }> {
  const key = KEY_PREFIX + randomToken(32);
  const createdAt = nowSeconds();
  await putStreamKey(db, showId, await sha256Hex(key), createdAt);
  return { key, createdAt };
}

/** When the show's key was made (null: it has none). */
export function streamKeyMade(db: D1Database, showId: number): Promise<number | null> {
  return streamKeyCreatedAt(db, showId);
}

/** The show a key opens (null: no such key, or one replaced since). */
export async function showOfStreamKey(db: D1Database, key: string): Promise<number | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
  return showOfKeyHash(db, await sha256Hex(key));
}
