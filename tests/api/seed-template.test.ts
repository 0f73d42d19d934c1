import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CONTEST_ROUND_DAYS } from '../../src/server/seed/contest';
import { seedDatabase } from '../../src/server/seed/seed';

// Every file's database is a copy of one made per run (tests/api/seed-template.ts, setup.ts). The
// copy must be what each file used to make for itself: here the old way, migrations and
// seedDatabase() into a second database (SEED_CHECK_DB), is compared with this file's copy, table
// by table and row by row (values with their SQLite types, rowids, sqlite_sequence). Two things
// differ by design: password hashes (a random salt per seed) and d1_migrations.applied_at. The FTS5
// tables' b-tree segments (their _data and _idx shadow tables) are laid out differently (the copy
// fills them in one transaction, the seed in several), so their whole index is compared instead:
// every term of every row, column and position (fts5vocab), and ranked searches.

type Snapshot = Map<string, string[]>;

const SEGMENTS = /_fts_(data|idx)$/;
const FTS = ['shows_fts', 'videos_fts', 'galleries_fts'];
const SEARCHES = [
  "SELECT rowid, rank FROM shows_fts WHERE shows_fts MATCH 'a*' ORDER BY rank",
  "SELECT rowid, bm25(videos_fts) FROM videos_fts WHERE videos_fts MATCH 'l*' ORDER BY rank",
  "SELECT rowid FROM galleries_fts WHERE galleries_fts MATCH 's* OR m*'",
];

const salted = (table: string, column: string) => (table === 'users' && column === 'password_hash') || (table === 'd1_migrations' && column === 'applied_at');

async function snapshot(db: D1Database): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const { results: schema } = await db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' AND name NOT LIKE '%_vocab' ORDER BY type, name")
    .all<{ type: string; name: string; tbl_name: string; sql: string | null }>();
  out.set('sqlite_master', schema.map((o) => `${o.type}|${o.name}|${o.tbl_name}|${o.sql}`));
  for (const t of schema.filter((o) => o.type === 'table' && !SEGMENTS.test(o.name))) {
    const { results: cols } = await db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').bind(t.name).all<{ name: string }>();
    const noRowid = t.name === 'sqlite_sequence' || /WITHOUT\s+ROWID\s*$/i.test(t.sql ?? '');
    const values = [...(noRowid ? [] : ['quote(rowid)']), ...cols.filter((c) => !salted(t.name, c.name)).map((c) => `quote("${c.name}") || ':' || typeof("${c.name}")`)];
    const rows = await db.prepare(`SELECT ${values.join(', ')} FROM "${t.name}"${noRowid ? '' : ' ORDER BY rowid'}`).raw<string[]>();
    const lines = rows.map((r) => r.join('|'));
    // sqlite_sequence lists tables in the order their first row came (the copy goes table by table).
    out.set(t.name, t.name === 'sqlite_sequence' ? lines.sort() : lines);
  }
  for (const fts of FTS) {
    await db.prepare(`CREATE VIRTUAL TABLE IF NOT EXISTS ${fts}_vocab USING fts5vocab(${fts}, 'instance')`).run();
    out.set(`${fts} index`, (await db.prepare(`SELECT term, doc, col, offset FROM ${fts}_vocab ORDER BY term, doc, col, offset`).raw()).map((r) => JSON.stringify(r)));
  }
  for (const q of SEARCHES) out.set(q, (await db.prepare(q).raw()).map((r) => JSON.stringify(r)));
  return out;
}

describe('the per-run copy of the demo database', () => {
  it('equals the migrations and seedDatabase() of each file before', async () => {
    // The contest follows the clock: the copy's running round ends CONTEST_ROUND_DAYS - 2 days after setup.ts ran.
    const running = await env.DB.prepare('SELECT MAX(ends_at) AS ends_at FROM contests').first<{ ends_at: number }>();
    const contestNow = running!.ends_at - (CONTEST_ROUND_DAYS - 2) * 86_400;
    await applyD1Migrations(env.SEED_CHECK_DB, env.TEST_MIGRATIONS);
    await seedDatabase(env.SEED_CHECK_DB, env.PASSWORD_PEPPER ?? '', undefined, contestNow);

    const [made, copy] = [await snapshot(env.SEED_CHECK_DB), await snapshot(env.DB)];
    expect([...copy.keys()].sort()).toEqual([...made.keys()].sort());
    for (const [name, rows] of made) expect(copy.get(name), name).toEqual(rows);
    // Guard against a vacuous pass: the demo catalogue is there, and so are its search index and contest.
    expect(made.get('shows')).toHaveLength(264);
    expect(made.get('gallery_pictures')!.length).toBeGreaterThan(8000);
    expect(made.get('shows_fts index')!.length).toBeGreaterThan(10_000);
    expect(made.get('contests')).toHaveLength(2);
    expect(await env.DB.prepare('PRAGMA foreign_key_check').raw()).toEqual([]);
  });
});
