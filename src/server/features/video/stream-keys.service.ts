import { nowSeconds } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/crypto';

// A show's stream key for OBS over WHIP (issue 28; migration 0026): made in the studio and shown
// there once; only its SHA-256 is stored. A new key replaces the old, which stops working at once.

/** What a key looks like (so a performer can tell it from other secrets): `sk_` and 43 random characters. */
const KEY_PREFIX = 'sk_';

/** A new key for the show (the old one, if any, no longer opens anything). Answers the key: it is not kept. */
export async function newStreamKey(db: D1Database, showId: number): Promise<{ key: string; createdAt: number }> {
  const key = KEY_PREFIX + randomToken(32);
  const createdAt = nowSeconds();
  await db
    .prepare('INSERT INTO stream_keys (show_id, key_hash, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (show_id) DO UPDATE SET key_hash = ?2, created_at = ?3')
    .bind(showId, await sha256Hex(key), createdAt)
    .run();
  return { key, createdAt };
}

/** When the show's key was made (null: it has none). */
export async function streamKeyMade(db: D1Database, showId: number): Promise<number | null> {
  return (await db.prepare('SELECT created_at FROM stream_keys WHERE show_id = ?').bind(showId).first<number>('created_at')) ?? null;
}

/** The show a key opens (null: no such key, or one replaced since). */
export async function showOfStreamKey(db: D1Database, key: string): Promise<number | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
  return (await db.prepare('SELECT show_id FROM stream_keys WHERE key_hash = ?').bind(await sha256Hex(key)).first<number>('show_id')) ?? null;
}
