// npm run build: the client bundle plus the deployable worker bundle in dist/worker (offline).
import { buildClient, wrangler } from './lib.mjs';

await buildClient();
await wrangler(['deploy', '--dry-run', '--outdir', 'dist/worker']);
