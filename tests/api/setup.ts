import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { seedDatabase } from '../../src/server/seed/seed';

// Each test file gets the migrated schema and the demo data once.
const seeded = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'shows'").first();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
if (!seeded || !(await env.DB.prepare('SELECT 1 FROM shows LIMIT 1').first())) {
  await seedDatabase(env.DB, env.PASSWORD_PEPPER ?? '');
}
