import type { D1Migration } from '@cloudflare/vitest-pool-workers';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Node side of the Workers tests' demo database (issue 25). Before, every test file applied the
// migrations and seeded the demo catalogue itself (about 1,000 statements, three PBKDF2 hashes);
// now one workerd does that once per run (seed-template.worker.ts) and each file's setup.ts runs
// the result, one batch of about 150 statements (after dropping what the worker's previous file
// left, tests/api/reset.ts). The pool gives every pool worker a Miniflare of its own with D1 in a
// fresh temp folder and takes no persistence options, so a database file cannot be copied in: the
// copy travels as SQL (the TEST_SEED_SQL binding).

const worker = fileURLToPath(new URL('./seed-template.worker.ts', import.meta.url));
const wranglerToml = readFileSync(fileURLToPath(new URL('../../wrangler.toml', import.meta.url)), 'utf8');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(wranglerToml)?.[1];

async function makeTemplate(migrations: D1Migration[], pepper: string): Promise<string[]> {
  const bundle = await build({ entryPoints: [worker], bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'warning' });
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: 'seed-template.mjs', contents: bundle.outputFiles[0].text }],
    compatibilityDate,
    d1Databases: { DB: 'seed-template' },
  });
  try {
    const res = await mf.dispatchFetch('http://seed-template/', { method: 'POST', body: JSON.stringify({ migrations, pepper }) });
    if (!res.ok) throw new Error(`seed template: ${res.status} ${await res.text()}`);
    return (await res.json()) as string[];
  } finally {
    await mf.dispose();
  }
}

let template: Promise<string[]> | undefined;

/** The migrated and seeded demo database as SQL statements (without its contest rows): made on the first call of the run. */
export function seedTemplate(migrations: D1Migration[], pepper: string): Promise<string[]> {
  template ??= makeTemplate(migrations, pepper);
  return template;
}
