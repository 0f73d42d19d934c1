// npm start: build the client, migrate the local D1, seed demo data once, serve on 127.0.0.1.
import { buildClient, DEV_CONFIGS, ensureDevVars, migrateLocal, seedIfEmpty, seedMediaIfMissing, startOrigin, wrangler } from './lib.mjs';

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
console.log(`Serving on http://127.0.0.1:${port}`);
await wrangler(['dev', ...DEV_CONFIGS, '--ip', '127.0.0.1', '--port', port, '--local', '--show-interactive-dev-session=false', '--var', `PUBLIC_ORIGIN:${origin}`]);
