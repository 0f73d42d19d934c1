import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { resetBuckets, resetDatabase, resetDurableObjects, seedTestDatabase } from './reset';

// The wipe between the files of one pool worker (setup.ts, reset.ts): what a file leaves in a
// Durable Object, in D1 or in R2 does not reach the next file.

const tableCount = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").first<{ n: number }>())!.n;

describe('the wipe between test files', () => {
  it('resets each Durable Object that holds a key or an alarm (a new instance, nothing stored, no alarm) and leaves the others', async () => {
    const room = () => env.ROOM.get(env.ROOM.idFromName('reset-test'));
    await runInDurableObject(room(), async (object, state) => {
      (object as unknown as { marker?: number }).marker = 1;
      await state.storage.put('left-over', 1);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await resetDurableObjects()).toBe(1);
    // A new stub: the old one is bound to the instance that was reset.
    await runInDurableObject(room(), async (object, state) => {
      expect((object as unknown as { marker?: number }).marker).toBeUndefined();
      expect((await state.storage.list()).size).toBe(0);
      expect(await state.storage.getAlarm()).toBeNull();
    });
    expect(await resetDurableObjects()).toBe(0);
  });

  it('drops every table, full-text ones included, with their rows, and the seed then runs again', async () => {
    await env.DB.prepare("INSERT INTO coupons (code, type, value, valid_until, created_at) VALUES ('LEFTOVER', 'COINS', 5, 0, 0)").run();
    expect(await tableCount()).toBeGreaterThan(20);
    await resetDatabase();
    expect(await tableCount()).toBe(0);
    await seedTestDatabase();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM coupons WHERE code = 'LEFTOVER'").first('n')).toBe(0);
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM shows').first('n')).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM shows_fts WHERE shows_fts MATCH 'a*'").first('n')).toBeGreaterThan(0);
  });

  it('empties both buckets, past a page of listing', async () => {
    for (let i = 0; i < 25; i++) await env.MEDIA.put(`uploads/videos/1/${i}-preview`, 'x');
    await env.IDDOCS.put('left-over', 'x');
    expect(await resetBuckets(10)).toBe(26);
    expect((await env.MEDIA.list()).objects).toEqual([]);
    expect((await env.IDDOCS.list()).objects).toEqual([]);
  });
});
