// Shared steps of the npm scripts: wrangler without network look-ups, dev vars, client build,
// local D1 migrations and the one-time demo seed.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

// There is no internet here: without these, wrangler waits on failing fetches at start-up.
export const wranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  CI: process.env.CI ?? '',
};

// The application's worker and, beside it, the worker of the live rooms' shards (wrangler.shard.toml),
// served together by one wrangler dev: the first config is the one that answers requests.
export const DEV_CONFIGS = ['-c', 'wrangler.toml', '-c', 'wrangler.shard.toml'];

export function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', env: opts.env ?? process.env });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`))));
  });
}

export const wrangler = (args, opts = {}) => run(bin('wrangler'), args, { ...opts, env: wranglerEnv });

/**
 * A fresh VAPID key pair (Web Push, RFC 8292), base64url as the worker reads it: the public key an
 * uncompressed P-256 point, the private key its scalar d. For development and tests only.
 */
export function newVapidKeys() {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
  return { VAPID_PUBLIC_KEY: point.toString('base64url'), VAPID_PRIVATE_KEY: jwk.d };
}

/** Local secrets for wrangler dev: made once per checkout, never committed. */
export function ensureDevVars() {
  const file = join(root, '.dev.vars');
  // OPS_TOKEN's development value is documented in the README; the simulator keeps the lobby lively.
  if (!existsSync(file)) writeFileSync(file, 'ENVIRONMENT=development\nOPS_TOKEN=dev-ops-token\nSIMULATOR=1\nDEV_GEO=1\n');
  // Secrets a checkout lacks are added (an older .dev.vars keeps its values).
  const current = readFileSync(file, 'utf8');
  for (const key of ['PASSWORD_PEPPER', 'SESSION_SECRET', 'AVS_SECRET']) {
    if (!new RegExp(`^${key}=`, 'm').test(current)) writeFileSync(file, `${key}=${randomBytes(32).toString('hex')}\n`, { flag: 'a' });
  }
  // Web Push: a VAPID key pair of this checkout's own (development only; production's is a secret, README).
  if (!/^VAPID_PRIVATE_KEY=/m.test(current)) {
    const keys = newVapidKeys();
    writeFileSync(file, `VAPID_PUBLIC_KEY=${keys.VAPID_PUBLIC_KEY}\nVAPID_PRIVATE_KEY=${keys.VAPID_PRIVATE_KEY}\nVAPID_SUBJECT=mailto:dev@livecam.example\n`, { flag: 'a' });
  }
  const vars = Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.match(/^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/))
      .filter(Boolean)
      .map((m) => [m[1], m[2].replace(/^"(.*)"$/, '$1')]),
  );
  return vars;
}

/**
 * The origin of `npm start`'s mail links: PUBLIC_ORIGIN from .dev.vars, else the address it
 * listens on and announces (127.0.0.1, not localhost: the browser keeps cookies per host, so a
 * link to the other name would arrive logged out).
 */
export function startOrigin(port, vars = {}) {
  return vars.PUBLIC_ORIGIN || `http://127.0.0.1:${port}`;
}

export async function buildClient() {
  await run(bin('vite'), ['build', '--logLevel', 'warn']);
}

const persistArgs = (persistTo) => (persistTo ? ['--persist-to', persistTo] : []);

export async function migrateLocal(persistTo) {
  await wrangler(['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(persistTo)]);
}

/**
 * Seeds the demo data when the shows table is empty, so running it again changes nothing. The demo
 * contest rolls on: when no round runs any more (or the database predates the contest), a new
 * round is added (src/server/seed/contest.ts).
 */
export async function seedIfEmpty(persistTo, pepper) {
  const now = "CAST(strftime('%s', 'now') AS INTEGER)";
  const out = await wrangler(
    [
      'd1', 'execute', 'DB', '--local', ...persistArgs(persistTo), '--json', '--command',
      `SELECT (SELECT COUNT(*) FROM shows) AS n, (SELECT COUNT(*) FROM video_parts) AS parts, (SELECT COUNT(*) FROM contests WHERE starts_at <= ${now} AND ends_at > ${now}) AS running`,
    ],
    { capture: true },
  );
  const { n, parts, running } = JSON.parse(out)[0]?.results?.[0] ?? { n: 0, parts: 0, running: 0 };
  if (n > 0 && parts > 0 && running > 0) return false;
  const { demoSqlScript, storeBackfillSqlScript, contestRollSqlScript } = await loadTs('src/server/seed/seed.ts');
  // A file of its own: the e2e setup seeds several servers at once.
  const file = join(root, '.tmp', `seed-${randomBytes(6).toString('hex')}.sql`);
  mkdirSync(dirname(file), { recursive: true });
  // Seeded before the store existed: only the store's rows of the same demo catalogue.
  const store = n > 0 && parts === 0 ? storeBackfillSqlScript() : '';
  writeFileSync(file, n > 0 ? `${store}${running > 0 ? '' : contestRollSqlScript()}` : await demoSqlScript(pepper));
  try {
    await wrangler(['d1', 'execute', 'DB', '--local', ...persistArgs(persistTo), '--file', file], { capture: true });
  } finally {
    rmSync(file, { force: true });
  }
  return true;
}

/**
 * Puts the demo media (the committed clips of media/demo/clips and the generated gallery pictures)
 * into the local R2 bucket that wrangler dev (and vite dev) read: Miniflare's own R2 storage under
 * `<persistTo or .wrangler/state>/v3/r2`, bucket id = wrangler.toml's bucket_name. Written in one
 * Miniflare process (seconds, not one wrangler run per object); skipped when the bucket already
 * holds this exact set (a marker file carries a hash of every key and body).
 */
export async function seedMediaIfMissing(persistTo) {
  const { demoPictureObjects } = await loadTs('src/server/seed/media.ts');
  const { DEMO_CLIP_COUNT, demoClipKey, demoPreviewKey } = await loadTs('src/shared/store.ts');
  const objects = demoPictureObjects();
  for (let n = 0; n < DEMO_CLIP_COUNT; n++) {
    for (const key of [demoClipKey(n), demoPreviewKey(n)]) {
      // A plain Uint8Array: Miniflare's proxy refuses a Buffer (a view into Node's shared pool).
      objects.push({ key, body: new Uint8Array(readFileSync(join(root, 'media', key))), contentType: 'video/webm' });
    }
  }
  const hash = createHash('sha256');
  for (const o of objects) hash.update(o.key).update('\0').update(o.body).update('\0');
  const digest = hash.digest('hex');
  const bucketName = readFileSync(join(root, 'wrangler.toml'), 'utf8').match(/binding = "MEDIA"\s*\nbucket_name = "([^"]+)"/)?.[1];
  if (!bucketName) throw new Error('wrangler.toml has no MEDIA bucket');
  // The marker sits in Miniflare's R2 folder, so deleting the local state re-seeds.
  const r2Dir = join(persistTo ?? join(root, '.wrangler', 'state'), 'v3', 'r2');
  const marker = join(r2Dir, `${bucketName}.demo-media.sha256`);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === digest) return false;
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
    r2Buckets: { MEDIA: bucketName },
    r2Persist: r2Dir,
  });
  try {
    const bucket = await mf.getR2Bucket('MEDIA');
    for (let i = 0; i < objects.length; i += 32) {
      await Promise.all(objects.slice(i, i + 32).map((o) => bucket.put(o.key, o.body, { httpMetadata: { contentType: o.contentType } })));
    }
  } finally {
    await mf.dispose();
  }
  writeFileSync(marker, digest);
  return true;
}

/**
 * A new local state for a throwaway server (e2e tests, benchmarks): the migrations, recorded in
 * d1_migrations as `wrangler d1 migrations apply` does, and the demo data, written by one
 * Miniflare process into the database wrangler dev reads (wrangler.toml's database_id under
 * `<persistTo>/v3/d1`), then the demo media. Several seconds faster than one wrangler run per step
 * (wrangler starts a Miniflare per migration). A database seeded before is left to seedIfEmpty.
 */
export async function prepareFreshState(persistTo, pepper) {
  const databaseId = readFileSync(join(root, 'wrangler.toml'), 'utf8').match(/binding = "DB"[^[]*?database_id = "([^"]+)"/)?.[1];
  if (!databaseId) throw new Error('wrangler.toml has no DB database_id');
  const [{ Miniflare }, { unstable_splitSqlQuery: splitSql }] = await Promise.all([import('miniflare'), import('wrangler')]);
  // Statements go through a worker's fetch (async), not the binding proxy of getD1Database: its
  // synchronous calls (prepare, bind) failed now and then with an assertion inside Miniflare's
  // SynchronousFetcher while an e2e run started its servers.
  const mf = new Miniflare({ modules: true, script: SQL_WORKER, d1Databases: { DB: databaseId }, d1Persist: join(persistTo, 'v3', 'd1') });
  /** Runs the statements in one D1 batch; answers each statement's rows. */
  const batch = async (statements) => {
    const res = await mf.dispatchFetch('http://sql/', { method: 'POST', body: JSON.stringify(statements) });
    if (!res.ok) throw new Error(`local D1: ${await res.text()}`);
    return res.json();
  };
  const script = (sql) => splitSql(sql).map((q) => ({ sql: q }));
  let seeded = false;
  try {
    await batch([{ sql: 'CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)' }]);
    const [done] = await batch([{ sql: 'SELECT name FROM d1_migrations' }]);
    const applied = new Set(done.map((r) => r.name));
    const dir = join(root, 'migrations');
    const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    for (const name of files.filter((f) => !applied.has(f))) {
      await batch([...script(readFileSync(join(dir, name), 'utf8')), { sql: 'INSERT INTO d1_migrations (name) VALUES (?)', params: [name] }]);
    }
    const [shows] = await batch([{ sql: 'SELECT 1 FROM shows LIMIT 1' }]);
    if (!shows.length) {
      const { demoSqlScript } = await loadTs('src/server/seed/seed.ts');
      await batch(script(await demoSqlScript(pepper)));
      seeded = true;
    }
  } finally {
    await mf.dispose();
  }
  if (!seeded) await seedIfEmpty(persistTo, pepper);
  await seedMediaIfMissing(persistTo);
}

/** The worker prepareFreshState talks to: a POSTed list of { sql, params } runs as one D1 batch. */
const SQL_WORKER = `export default {
  async fetch(request, env) {
    try {
      const statements = await request.json();
      const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...(s.params ?? []))));
      return Response.json(results.map((r) => r.results ?? []));
    } catch (e) {
      return new Response(String(e && e.stack || e), { status: 500 });
    }
  },
};`;

/** Imports a TypeScript module of src/ in Node (bundled on the fly by esbuild). */
export async function loadTs(entry) {
  const { build } = await import('esbuild');
  // A file of its own per call: several servers may be seeded at once.
  const outfile = join(root, '.tmp', `${entry.replace(/[\\/]/g, '_')}-${randomBytes(6).toString('hex')}.mjs`);
  await build({ entryPoints: [join(root, entry)], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning' });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** A TCP port free on the loopback right now. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (address && typeof address === 'object' ? resolvePort(address.port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * wrangler dev gives `--var` to the first config only; the second reads the .dev.vars beside its
 * config. So a throwaway server's shard worker gets a copy of wrangler.shard.toml in its own state
 * folder with the server's vars beside it (the same secrets as the application: room tokens).
 */
function shardConfigWithVars(persistTo, vars) {
  const dir = join(persistTo, 'shard-worker');
  mkdirSync(dir, { recursive: true });
  const config = readFileSync(join(root, 'wrangler.shard.toml'), 'utf8').replace(/^main = "(.+)"$/m, (_, main) => `main = ${JSON.stringify(join(root, main))}`);
  writeFileSync(join(dir, 'wrangler.toml'), config);
  // Single-quoted: taken literally. A value that cannot be (a quote or a line break in it) is left
  // out: the shards read only the token secrets, plain strings.
  const lines = Object.entries(vars).flatMap(([k, v]) => (/['\n]/.test(String(v)) ? [] : [`${k}='${v}'`]));
  writeFileSync(join(dir, '.dev.vars'), lines.join('\n'));
  return join(dir, 'wrangler.toml');
}

/**
 * A throwaway server for e2e tests and benchmarks: its own D1 state in a temp folder,
 * migrated and seeded, wrangler dev on `port`. Resolves once /version answers.
 */
export async function startServer({ port, persistTo, pepper = 'e2e-pepper-not-secret', vars = {} }) {
  await prepareFreshState(persistTo, pepper);
  const allVars = { ENVIRONMENT: 'development', PASSWORD_PEPPER: pepper, OPS_TOKEN: 'e2e-ops-token', PUBLIC_ORIGIN: `http://127.0.0.1:${port}`, ...newVapidKeys(), VAPID_SUBJECT: 'mailto:e2e@livecam.example', PUSH_SERVICE_HOSTS: 'push.example.test', DEV_GEO: '1', ...vars };
  const varArgs = Object.entries(allVars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  const child = spawn(
    bin('wrangler'),
    // An inspector port of its own: several servers (the e2e workers, a bench beside npm start) may run at once.
    ['dev', '-c', 'wrangler.toml', '-c', shardConfigWithVars(persistTo, allVars), '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(await freePort()), '--local', '--persist-to', persistTo, '--show-interactive-dev-session=false', '--env-file', '/dev/null', ...varArgs],
    { cwd: root, env: wranglerEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  // The log's tail only: a long benchmark (thousands of sockets, each request logged) would outgrow a string.
  let log = '';
  const keep = (d) => {
    log += d;
    if (log.length > 1_000_000) log = log.slice(-500_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/version`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid, 'SIGTERM');
      throw new Error(`wrangler dev did not start within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid,
    log: () => log,
    stop: () =>
      new Promise((resolveStop) => {
        if (child.exitCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          resolveStop();
        }
      }),
  };
}
