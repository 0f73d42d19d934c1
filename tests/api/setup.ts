import { env } from 'cloudflare:workers';
import { contestSeedStatements } from '../../src/server/seed/contest';

// Each test file starts from the migrated and seeded demo database, made once per run
// (tests/api/seed-template.ts) and run here in one batch, then gets the demo contest on this
// file's clock, as seedDatabase() (src/server/seed/seed.ts) ends. The pool gives every file a D1
// of its own, so what one file writes never reaches another.
const contestNow = Math.floor(Date.now() / 1000);
await env.DB.batch([
  ...env.TEST_SEED_SQL.map((sql) => env.DB.prepare(sql)),
  ...contestSeedStatements().map((sql) => (sql.includes('?1') ? env.DB.prepare(sql).bind(contestNow) : env.DB.prepare(sql))),
]);
