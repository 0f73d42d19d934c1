// npm run deploy: build, apply D1 migrations remotely, then deploy the worker.
// Needs a Cloudflare login (wrangler login or CLOUDFLARE_API_TOKEN); see README "Deploy".
import { buildClient, wrangler } from './lib.mjs';

await buildClient();
await wrangler(['d1', 'migrations', 'apply', 'DB', '--remote']);
await wrangler(['deploy']);
