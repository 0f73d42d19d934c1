import { cloudflare } from '@cloudflare/vite-plugin';
import { defineConfig } from 'vite';

// `npm run dev`: the worker runs in workerd inside Vite (D1, Durable Objects, HMR for the client).
// Vite serves its own module URLs (/src, /@vite, …), so the worker must not see every request here.
const port = Number(process.env.PORT ?? 5173);
// Vars of this run only, from scripts/dev.mjs (LOCAL_SFU=1: the local SFU stand-in's settings).
const runVars = process.env.LIVECAM_WORKER_VARS ? (JSON.parse(process.env.LIVECAM_WORKER_VARS) as Record<string, string>) : {};

export default defineConfig({
  publicDir: 'public',
  // Links in mails point at the Vite server (a PUBLIC_ORIGIN in .dev.vars takes precedence).
  plugins: [
    cloudflare({
      config: (c) => ({ assets: { ...c.assets, run_worker_first: false }, vars: { ...c.vars, PUBLIC_ORIGIN: `http://127.0.0.1:${port}`, ...runVars } }),
      // The live rooms' shards run in a worker of their own, as in production (wrangler.shard.toml).
      auxiliaryWorkers: [{ configPath: './wrangler.shard.toml' }],
    }),
  ],
  server: { host: '127.0.0.1', port },
});
