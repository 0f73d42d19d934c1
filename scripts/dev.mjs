// npm run dev: Vite with the Cloudflare plugin (worker in workerd, D1, Durable Objects, HMR).
// LOCAL_SFU=1: video through the local Realtime SFU stand-in (scripts/local-video.mjs); its vars
// reach the worker through LIVECAM_WORKER_VARS, which vite.dev.config.ts adds to the config's vars.
import { ensureDevVars, migrateLocal, root, run, seedIfEmpty, seedMediaIfMissing } from './lib.mjs';
import { withLocalVideo } from './local-video.mjs';
import { join } from 'node:path';

const vars = ensureDevVars();
await migrateLocal();
await seedIfEmpty(undefined, vars.PASSWORD_PEPPER);
await seedMediaIfMissing();
await withLocalVideo(vars, (workerVars) =>
  run(join(root, 'node_modules', '.bin', 'vite'), ['--config', 'vite.dev.config.ts'], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...(Object.keys(workerVars).length ? { LIVECAM_WORKER_VARS: JSON.stringify(workerVars) } : {}) },
  }),
);
