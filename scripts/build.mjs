// npm run build: the client bundle plus the deployable bundles of both workers in dist/ (offline).
import { buildClient, wrangler } from './lib.mjs';

await buildClient();
await wrangler(['deploy', '--dry-run', '--outdir', 'dist/worker']);
await wrangler(['deploy', '-c', 'wrangler.shard.toml', '--dry-run', '--outdir', 'dist/shard-worker']);
