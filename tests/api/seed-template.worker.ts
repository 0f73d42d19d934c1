import type { D1Migration } from '@cloudflare/vitest-pool-workers';
import { seedDatabase } from '../../src/server/seed/seed';

// The demo database of the Workers tests, made once per run in a workerd of its own
// (tests/api/seed-template.ts bundles this file and posts the migrations and the pepper to it):
// the migrations as the pool's applyD1Migrations() applies them and seedDatabase(), the calls
// every test file made for itself before (issue 25), then the result as SQL statements that
// tests/api/setup.ts runs in one batch.

/** Filled per test file on that file's clock (src/server/seed/contest.ts), as seedDatabase() does last. */
export const CONTEST_TABLES: readonly string[] = ['contests', 'contest_entries', 'contest_votes'];

/** The statements of applyD1Migrations() (cloudflare:test), so d1_migrations is the same table with the same rows. */
async function applyMigrations(db: D1Database, migrations: D1Migration[]): Promise<void> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
	);`,
    )
    .run();
  const insert = db.prepare('INSERT INTO d1_migrations (name) VALUES (?);');
  for (const m of migrations) await db.batch([...m.queries.map((q) => db.prepare(q)), insert.bind(m.name)]);
}

/** Below D1's 100 KB per statement. */
const MAX_STATEMENT_BYTES = 90_000;
const FTS_SHADOW = ['_data', '_idx', '_content', '_docsize', '_config'];
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const utf8 = new TextEncoder();

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * The database as SQL: its tables, their rows (values written by SQLite's quote(), rowids kept),
 * then indexes, views and triggers, so no trigger fires while the rows go in. FTS5 tables get their
 * rows through the table itself, which fills its shadow tables (those are read-only in workerd): the
 * same index, packed into fewer b-tree segments. The rows of `skipRows` are left out.
 */
export async function dumpDatabase(db: D1Database, skipRows: readonly string[] = []): Promise<string[]> {
  const { results: schema } = await db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY rowid').all<SchemaRow>();
  const virtual = new Set(schema.filter((o) => o.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(o.sql ?? '')).map((o) => o.name));
  const shadow = new Set([...virtual].flatMap((v) => FTS_SHADOW.map((s) => `${v}${s}`)));
  const own = schema.filter((o) => o.sql && !o.name.startsWith('sqlite_') && !o.name.startsWith('_cf_') && !shadow.has(o.name));
  const tables = own.filter((o) => o.type === 'table');
  const out = tables.map((t) => `${t.sql};`);
  for (const t of tables) {
    if (skipRows.includes(t.name)) continue;
    const { results: cols } = await db.prepare('SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid').bind(t.name).all<{ name: string; type: string; pk: number }>();
    const pks = cols.filter((c) => c.pk > 0);
    const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*$/i.test(t.sql ?? '');
    // A rowid table without an INTEGER PRIMARY KEY keeps its hidden rowid (and with it its row order).
    const keepRowid = virtual.has(t.name) || (!withoutRowid && !(pks.length === 1 && pks[0].type.toUpperCase() === 'INTEGER'));
    const names = [...(keepRowid ? ['rowid'] : []), ...cols.map((c) => ident(c.name))];
    const values = names.map((n) => `quote(${n})`).join(', ');
    const rows = await db.prepare(`SELECT ${values} FROM ${ident(t.name)}${withoutRowid ? '' : ' ORDER BY rowid'}`).raw<string[]>();
    const head = `INSERT INTO ${ident(t.name)} (${names.join(', ')}) VALUES `;
    let chunk: string[] = [];
    let bytes = utf8.encode(head).length;
    for (const row of rows.map((r) => r.join(','))) {
      const size = utf8.encode(row).length + 3;
      if (chunk.length && bytes + size > MAX_STATEMENT_BYTES) {
        out.push(`${head}${chunk.join(',')};`);
        chunk = [];
        bytes = utf8.encode(head).length;
      }
      chunk.push(`(${row})`);
      bytes += size;
    }
    if (chunk.length) out.push(`${head}${chunk.join(',')};`);
  }
  for (const type of ['index', 'view', 'trigger']) for (const o of own.filter((x) => x.type === type)) out.push(`${o.sql};`);
  return out;
}

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    const { migrations, pepper } = await request.json<{ migrations: D1Migration[]; pepper: string }>();
    await applyMigrations(env.DB, migrations);
    await seedDatabase(env.DB, pepper);
    return Response.json(await dumpDatabase(env.DB, CONTEST_TABLES));
  },
};
