// npm start: build the client, migrate the local D1, seed demo data once, serve on 127.0.0.1.
// LOCAL_SFU=1: video through the local Realtime SFU stand-in (scripts/local-video.mjs), its
// settings given to wrangler dev as --var (this run only).
import { buildClient, DEV_CONFIGS, ensureDevVars, migrateLocal, seedIfEmpty, seedMediaIfMissing, startOrigin, wrangler } from './lib.mjs';
import { withLocalVideo } from './local-video.mjs';

const port = process.env.PORT ?? '8787';
const vars = ensureDevVars();
console.log('Building the client…');
await buildClient();
console.log('Applying D1 migrations (local)…');
await migrateLocal();
if (await seedIfEmpty(undefined, vars.PASSWORD_PEPPER)) console.log('Seeded the demo data.');
if (await seedMediaIfMissing()) console.log('Put the demo media into the local R2.');
// Links in mails point at this server (PUBLIC_ORIGIN; .dev.vars may name another).
const origin = startOrigin(port, vars);
await withLocalVideo(vars, (workerVars) => {
  console.log(`Serving on http://127.0.0.1:${port}`);
  const varArgs = Object.entries({ PUBLIC_ORIGIN: origin, ...workerVars }).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  return wrangler(['dev', ...DEV_CONFIGS, '--ip', '127.0.0.1', '--port', port, '--local', '--show-interactive-dev-session=false', ...varArgs]);
});
