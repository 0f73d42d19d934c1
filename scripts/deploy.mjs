// npm run deploy: build, apply D1 migrations remotely, then deploy the two workers: the live
// rooms' shards (wrangler.shard.toml) and the application (wrangler.toml). Each binds a Durable
// Object class of the other, and Cloudflare refuses a binding to a Worker that does not exist yet.
// So on the very first deploy the application goes first with its shards inside it (it exports
// RoomShard, migration v4), then the shards' worker, then the application bound to it.
// Needs a Cloudflare login (wrangler login or CLOUDFLARE_API_TOKEN); see README "Deploy".
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildClient, root, wrangler } from './lib.mjs';

await buildClient();
await wrangler(['d1', 'migrations', 'apply', 'DB', '--remote']);
try {
  await wrangler(['deploy', '-c', 'wrangler.shard.toml']);
} catch {
  console.log('The shards worker was not taken (a first deploy: the application does not exist yet). The application with its shards inside first.');
  const bootstrap = join(root, 'wrangler.first-deploy.toml');
  writeFileSync(bootstrap, readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(/, script_name = "livecam-shards"/, ''));
  try {
    await wrangler(['deploy', '-c', bootstrap]);
  } finally {
    rmSync(bootstrap, { force: true });
  }
  await wrangler(['deploy', '-c', 'wrangler.shard.toml']);
}
await wrangler(['deploy']);
