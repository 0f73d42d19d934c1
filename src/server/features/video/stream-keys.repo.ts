// The stream_keys table (migration 0026): one row per show, the key's SHA-256 only.

export async function putStreamKey(db: D1Database, showId: number, keyHash: string, createdAt: number): Promise<void> {
  await db
    .prepare('INSERT INTO stream_keys (show_id, key_hash, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (show_id) DO UPDATE SET key_hash = ?2, created_at = ?3')
    .bind(showId, keyHash, createdAt)
    .run();
}

export async function streamKeyCreatedAt(db: D1Database, showId: number): Promise<number | null> {
  return (await db.prepare('SELECT created_at FROM stream_keys WHERE show_id = ?').bind(showId).first<number>('created_at')) ?? null;
}

export async function showOfKeyHash(db: D1Database, keyHash: string): Promise<number | null> {
  return (await db.prepare('SELECT show_id FROM stream_keys WHERE key_hash = ?').bind(keyHash).first<number>('show_id')) ?? null;
}
