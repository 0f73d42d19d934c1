// npm run dev: Vite with the Cloudflare plugin (worker in workerd, D1, Durable Objects, HMR).
import { ensureDevVars, migrateLocal, root, run, seedIfEmpty, seedMediaIfMissing } from './lib.mjs';
import { join } from 'node:path';

const vars = ensureDevVars();
await migrateLocal();
await seedIfEmpty(undefined, vars.PASSWORD_PEPPER);
await seedMediaIfMissing();
await run(join(root, 'node_modules', '.bin', 'vite'), ['--config', 'vite.dev.config.ts'], {
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
});
