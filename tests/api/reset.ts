import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { contestSeedStatements } from '../../src/server/seed/contest';

// The files of one pool worker share a workerd (isolate: false in vitest.workers.config.ts: the
// worker's modules load once, not once per file), so setup.ts wipes what the worker's previous file
// left before the next one starts. tests/api/reset.test.ts proves that both wipes work.

/**
 * Every Durable Object that holds anything (a socket, an alarm, a stored key) loses its storage and
 * alarm and is then reset (which drops its sockets), so no memory of it survives and no alarm of an
 * old room charges a member of the new database. The reset runs just after the call, not in it (that
 * would fail the call); workerd still logs each one as an uncaught exception, "broken.outputGateBroken;
 * jsg.Error: test reset", which is expected.
 */
/**
 * The namespace's object ids. Twice in the fresh-clone runs of 2026-11-27 the pool's connection to
 * workerd was lost for a moment while a neighbouring file flooded a room ("Network connection
 * lost" here, after "overloaded" from the flood): the listing is asked again, up to three times.
 */
async function listIds(namespace: DurableObjectNamespace): Promise<DurableObjectId[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await listDurableObjectIds(namespace);
    } catch (e) {
      if (attempt >= 3 || !String(e).includes('Network connection lost')) throw e;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

export async function resetDurableObjects(): Promise<number> {
  let reset = 0;
  const calls: Promise<void>[] = [];
  const namespaces: DurableObjectNamespace[] = [env.LOBBY, env.LOBBY_HUB, env.ROOM, env.ROOM_SHARD] as unknown as DurableObjectNamespace[];
  for (const namespace of namespaces) {
    for (const id of await listIds(namespace)) {
      calls.push(
        runInDurableObject(namespace.get(id), async (_object, state) => {
          if (state.getWebSockets().length === 0 && (await state.storage.getAlarm()) === null && (await state.storage.list({ limit: 1 })).size === 0) return;
          reset++;
          await state.storage.deleteAlarm();
          await state.storage.deleteAll();
          setTimeout(() => state.abort('test reset'), 0);
        }),
      );
    }
  }
  await Promise.all(calls);
  // Lets the resets run before the next file's first request.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return reset;
}

/**
 * Empties the R2 buckets: ids start again with each file's fresh database, so an object a previous
 * file stored under `uploads/videos/797/...` would otherwise count for this file's video 797 (seen in
 * a CI run: an upload refused with 419 found "its" preview stored, a gallery published early).
 */
export async function resetBuckets(pageSize = 1000): Promise<number> {
  let removed = 0;
  for (const bucket of [env.MEDIA, env.IDDOCS]) {
    for (let cursor: string | undefined; ; ) {
      const page = await bucket.list({ cursor, limit: pageSize });
      if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
      removed += page.objects.length;
      if (!page.truncated) break;
      cursor = page.cursor;
    }
  }
  return removed;
}

/** Drops every table and view of the test database (views, then full-text tables with their shadow tables, then the rest). */
export async function resetDatabase(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ type: string; name: string; sql: string }>();
  if (results.length === 0) return;
  const rank = (r: { type: string; sql: string }) => (r.type === 'view' ? 0 : /^CREATE VIRTUAL/i.test(r.sql) ? 1 : 2);
  const drops = results.sort((a, b) => rank(a) - rank(b)).map((r) => env.DB.prepare(`DROP ${r.type === 'view' ? 'VIEW' : 'TABLE'} IF EXISTS "${r.name}"`));
  await env.DB.batch([env.DB.prepare('PRAGMA defer_foreign_keys = ON'), ...drops]);
}

/**
 * The migrated and seeded demo database, made once per run (tests/api/seed-template.ts) and run
 * here in one batch, then the demo contest on this file's clock, as seedDatabase()
 * (src/server/seed/seed.ts) ends.
 */
export async function seedTestDatabase(): Promise<void> {
  const contestNow = Math.floor(Date.now() / 1000);
  await env.DB.batch([
    ...env.TEST_SEED_SQL.map((sql) => env.DB.prepare(sql)),
    ...contestSeedStatements().map((sql) => (sql.includes('?1') ? env.DB.prepare(sql).bind(contestNow) : env.DB.prepare(sql))),
  ]);
}
