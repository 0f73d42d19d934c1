// npm run bench: one run against a throwaway local server (wrangler dev / workerd, own D1).
// Reports SSR home vs the same bytes served statically by the same worker, their ratio, and the
// first-load JavaScript of home in KB brotli. A report: exits 0 even when a target is missed,
// non-zero only when the benchmark itself cannot run. See bench/README.md.
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { buildClient, root, startServer } from '../scripts/lib.mjs';
import { benchLedger } from './ledger.mjs';
import { benchLogin, formatLogin } from './login.mjs';
import { benchLobby } from './lobby.mjs';
import { benchLobbyFloor } from './lobby-floor.mjs';

const num = (name, fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const SECONDS = num('BENCH_SECONDS', 10); // measured duration per URL
const WARMUP_SECONDS = num('BENCH_WARMUP_SECONDS', 2);
const CONCURRENCY = num('BENCH_CONCURRENCY', 16);
const MAX_REQUESTS = num('BENCH_MAX_REQUESTS', 500_000); // per measured URL, a bound besides time
const REQUEST_TIMEOUT_MS = 10_000;

const LOBBY_SOCKETS = num('BENCH_LOBBY_SOCKETS', 1000);
const LOBBY_SHARD_MAX = 250;
const OPS_TOKEN = 'e2e-ops-token'; // what startServer configures
const API_P99_FACTOR = 2;
const LOBBY_P99_TARGET_MS = 50;
const LOBBY_FLIPS = num('BENCH_LOBBY_FLIPS', 100); // enough updates for a p99 that is not just the maximum

const SSR_RATIO_TARGET = 0.5;
const JS_TARGET_KB = 80;
const KB = 1000; // kB as Vite prints them
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

const COOKIE = 'splash18=1; consent_analytics=1';
// Identity: the worker's own work is measured, not workerd's on-the-fly gzip (Cloudflare's edge
// compresses in production). Same request headers for both URLs.
const HEADERS = { Cookie: COOKIE, 'Accept-Encoding': 'identity', Accept: 'text/html' };

const STATIC_DIR = join(root, 'dist', 'client', 'static');
const STATIC_FILE = join(STATIC_DIR, 'bench-home.html');
const STATIC_PATH = '/static/bench-home.html';

// ---------------------------------------------------------------------------------------------
// Lifecycle: one server at a time, always stopped; temp dirs removed; also on SIGINT/SIGTERM.

let server = null;
let browserContext = null;
const tempDirs = [];
let createdStaticDir = false;

async function stopServer() {
  // Interrupted while wrangler dev was starting: wait for it, so it can be stopped too.
  if (pendingStart) await pendingStart.then((s) => (server = s)).catch(() => {});
  const s = server;
  server = null;
  if (s) await s.stop();
}

async function cleanup() {
  if (browserContext) {
    const c = browserContext;
    browserContext = null;
    await c.close().catch(() => {});
  }
  await stopServer().catch(() => {});
  agent.destroy();
  rmSync(STATIC_FILE, { force: true });
  if (createdStaticDir && existsSync(STATIC_DIR) && readdirSync(STATIC_DIR).length === 0) rmdirSync(STATIC_DIR);
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${sig}: stopping the server…`);
    cleanup().finally(() => process.exit(130));
  });
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

let pendingStart = null;

async function start(persistTo) {
  const port = await freePort();
  // Small shards so the lobby bench spreads its 1,000 sockets over several Durable Objects.
  pendingStart = startServer({ port, persistTo, vars: { LOBBY_MAX_SOCKETS: String(LOBBY_SHARD_MAX), LOBBY_SHARDS: '8', REALTIME_MAX_PER_ADDRESS: String(LOBBY_SOCKETS * 2), REALTIME_MAX_PER_SESSION: String(LOBBY_SOCKETS * 2) } });
  try {
    server = await pendingStart;
  } finally {
    pendingStart = null;
  }
  return server.url;
}

// ---------------------------------------------------------------------------------------------
// HTTP over loopback with keep-alive.

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, maxFreeSockets: CONCURRENCY });

/** GET; with keep=false the body is only counted (the hot loop), else returned as one Buffer. */
function get(url, { headers = HEADERS, keep = true } = {}) {
  return new Promise((resolveGet, reject) => {
    const u = new URL(url);
    if (u.hostname !== '127.0.0.1') return reject(new Error(`not loopback: ${url}`));
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'GET', headers, agent, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks = [];
        let bytes = 0;
        res.on('data', (d) => {
          bytes += d.length;
          if (keep) chunks.push(d);
        });
        res.on('end', () => resolveGet({ status: res.statusCode, headers: res.headers, bytes, body: keep ? Buffer.concat(chunks) : null }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** CONCURRENCY parallel keep-alive loops for `seconds` (and at most `maxRequests`). */
async function load(url, seconds, { maxRequests = MAX_REQUESTS, expectBytes = null } = {}) {
  const latencies = new Float64Array(maxRequests);
  let n = 0;
  let issued = 0;
  let ok = 0;
  let errors = 0;
  let failed = 0; // no response at all
  let bytes = 0;
  const errorKinds = new Map();
  const noteError = (kind) => {
    errors++;
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  };
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  async function loop() {
    while (performance.now() < end && issued < maxRequests && !interrupted) {
      issued++;
      const s = performance.now();
      try {
        const r = await get(url, { keep: false });
        latencies[n++] = performance.now() - s;
        bytes += r.bytes;
        if (r.status !== 200) noteError(`HTTP ${r.status}`);
        else if (expectBytes !== null && r.bytes !== expectBytes) noteError(`length ${r.bytes} ≠ ${expectBytes}`);
        else ok++;
      } catch (e) {
        failed++;
        noteError(e.code ?? e.message);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - t0) / 1000;
  const sorted = latencies.subarray(0, n).sort();
  return {
    requests: n + failed,
    ok,
    errors,
    errorKinds: Object.fromEntries(errorKinds),
    seconds: elapsed,
    rps: ok / elapsed,
    mbps: bytes / 1e6 / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

// ---------------------------------------------------------------------------------------------
// Steps.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const kb = (b) => b / KB;
const br = (buf) =>
  brotliCompressSync(buf, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: buf.length,
    },
  }).length;

async function captureHome(url) {
  const r = await get(`${url}/`);
  if (r.status !== 200) throw new Error(`GET / answered ${r.status}`);
  if (r.headers['content-encoding']) throw new Error(`GET / came ${r.headers['content-encoding']}-encoded despite Accept-Encoding: identity`);
  return r.body;
}

/**
 * The URL under which the worker serves the captured bytes. Workers assets' default
 * html_handling redirects /x.html to /x (307), so follow one same-origin redirect; the
 * result must answer 200 with identical bytes.
 */
async function staticUrlFor(url, home, waitMs) {
  const deadline = Date.now() + waitMs;
  let last = 'no answer';
  for (;;) {
    try {
      const r = await get(`${url}${STATIC_PATH}`);
      let target = `${url}${STATIC_PATH}`;
      let res = r;
      if (r.status >= 300 && r.status < 400 && r.headers.location) {
        target = new URL(r.headers.location, `${url}${STATIC_PATH}`).href;
        if (!target.startsWith(`${url}/`)) throw new Error(`redirect leaves the server: ${target}`);
        res = await get(target);
      }
      if (res.status === 200 && res.body.equals(home)) return { target, redirected: r.status !== 200 ? r.status : null };
      last = `${r.status}${res !== r ? ` → ${res.status}` : ''}, ${res.body.length} bytes, identical: ${res.body.equals(home)}`;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > deadline) return { target: null, last };
    await sleep(250);
  }
}

/** JS/CSS that home requests until network idle, seen by headless Chromium. */
async function browserAssets(url, profileDir) {
  const { chromium } = await import('playwright-core');
  browserContext = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  await browserContext.addCookies(
    COOKIE.split('; ').map((kv) => {
      const [name, value] = kv.split('=');
      return { name, value, url };
    }),
  );
  const js = new Set();
  const css = new Set();
  const failed = [];
  const pageErrors = [];
  const origin = new URL(url).origin;
  browserContext.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin)) return;
    const type = req.resourceType();
    if (type === 'script' || /\.m?js(\?|$)/.test(new URL(u).pathname)) js.add(u);
    else if (type === 'stylesheet') css.add(u);
  });
  browserContext.on('requestfailed', (req) => failed.push(`${req.url()} (${req.failure()?.errorText})`));
  const page = browserContext.pages()[0] ?? (await browserContext.newPage());
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${url}/`, { waitUntil: 'networkidle', timeout: 30_000 });
  await sleep(300); // anything started right at idle
  const islands = await page.$$eval('[data-island]', (els) => els.map((el) => el.dataset.island));
  await browserContext.close();
  browserContext = null;
  return { js: [...js], css: [...css], failed, pageErrors, islands };
}

/** Cross-check without a browser: entry + modulepreload, static imports, island dynamic imports. */
async function crawlAssets(url, html) {
  const text = html.toString('utf8');
  const attrs = (tag) => Object.fromEntries([...tag.matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const entries = [];
  for (const m of text.matchAll(/<script\b[^>]*>/g)) {
    const a = attrs(m[0]);
    if (a.type === 'module' && a.src) entries.push(a.src);
  }
  for (const m of text.matchAll(/<link\b[^>]*>/g)) {
    const a = attrs(m[0]);
    if (a.rel === 'modulepreload' && a.href) entries.push(a.href);
  }
  // Island name → chunk base name from the registry (e.g. DrawerToggle → drawer-toggle).
  const registry = readFileSync(join(root, 'src/client/islands.ts'), 'utf8');
  const chunkOf = Object.fromEntries([...registry.matchAll(/(\w+)\s*:\s*\(\)\s*=>\s*import\(\s*['"`]\.\/([^'"`]+)['"`]\s*\)/g)].map((m) => [m[1], posix.basename(m[2])]));
  const present = [...new Set([...text.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]))];
  const wanted = new Set(present.map((n) => chunkOf[n]).filter(Boolean));
  const seen = new Set();
  const queue = entries.map((e) => new URL(e, `${url}/`).href);
  while (queue.length) {
    const u = queue.shift();
    const key = u.split('?')[0];
    if (seen.has(key)) continue;
    seen.add(key);
    const r = await get(u);
    if (r.status !== 200) throw new Error(`crawl: ${u} answered ${r.status}`);
    const src = r.body.toString('utf8');
    for (const m of src.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+\.m?js)["'`]/g)) queue.push(new URL(m[1], u).href);
    for (const m of src.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.m?js)["'`]\s*\)/g)) {
      const base = posix.basename(m[1]).replace(/-[\w-]{8}\.m?js$/, '').replace(/\.m?js$/, '');
      if (wanted.has(base)) queue.push(new URL(m[1], u).href);
    }
  }
  return { js: [...seen], islands: present };
}

async function sizeOf(urls) {
  const files = [];
  for (const u of urls) {
    const r = await get(u);
    if (r.status !== 200) throw new Error(`${u} answered ${r.status}`);
    files.push({ path: new URL(u).pathname, raw: r.body.length, br: br(r.body) });
  }
  files.sort((a, b) => b.br - a.br);
  return { files, raw: files.reduce((s, f) => s + f.raw, 0), br: files.reduce((s, f) => s + f.br, 0) };
}

function printLoad(label, path, r) {
  const kinds = Object.entries(r.errorKinds)
    .map(([k, v]) => `${k}×${v}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(22)} ${path.padEnd(26)} ${String(r.requests).padStart(7)} req  ${fmt(r.rps).padStart(8)} req/s  ` +
      `p50 ${fmt(r.p50, 2).padStart(7)} ms  p99 ${fmt(r.p99, 2).padStart(7)} ms  ${fmt(r.mbps)} MB/s  errors ${r.errors}${kinds ? ` (${kinds})` : ''}`,
  );
}

async function main() {
  const t0 = performance.now();
  console.log('bench: building the client (vite build)…');
  await buildClient();

  const persistTo = mkdtempSync(join(os.tmpdir(), 'livecam-bench-d1-'));
  tempDirs.push(persistTo);

  // 1. Capture the SSR home bytes, then serve them as a static file from the same worker.
  console.log('bench: starting wrangler dev (fresh D1, migrated and seeded)…');
  let url = await start(persistTo);
  const home = await captureHome(url);
  if (!existsSync(STATIC_DIR)) {
    mkdirSync(STATIC_DIR, { recursive: true });
    createdStaticDir = true;
  }
  writeFileSync(STATIC_FILE, home);
  // wrangler dev watches the assets directory; if the new file does not show up, restart.
  let found = await staticUrlFor(url, home, 8_000);
  if (!found.target) {
    console.log(`bench: ${STATIC_PATH} not served yet (${found.last}); restarting the server…`);
    await stopServer();
    url = await start(persistTo);
    found = await staticUrlFor(url, home, 5_000);
    if (!found.target) throw new Error(`${STATIC_PATH} is not served with the captured bytes: ${found.last}`);
  }
  const ssrUrl = `${url}/`;
  const staticUrl = found.target;
  const staticPath = new URL(staticUrl).pathname;
  console.log(
    `bench: ${staticPath} serves the ${home.length} captured bytes identically` +
      (found.redirected ? ` (${STATIC_PATH} answers ${found.redirected} → ${staticPath}: assets html_handling)` : ''),
  );

  // 2. Throughput and latency. The static file must answer 200 with the same length every time;
  // if not (e.g. another `vite build` in this checkout emptied dist/client meanwhile), write it
  // again and measure both once more; still failing means the run is invalid.
  console.log(`bench: warm-up ${WARMUP_SECONDS} s per URL, then ${SECONDS} s per URL at concurrency ${CONCURRENCY} (keep-alive, loopback)…`);
  let ssr;
  let stat;
  for (let attempt = 1; ; attempt++) {
    await load(ssrUrl, WARMUP_SECONDS);
    await load(staticUrl, WARMUP_SECONDS, { expectBytes: home.length });
    ssr = await load(ssrUrl, SECONDS);
    stat = await load(staticUrl, SECONDS, { expectBytes: home.length });
    if (stat.errors === 0 || attempt === 2 || interrupted) break;
    const gone = !existsSync(STATIC_FILE);
    console.log(`bench: the static URL failed ${stat.errors}× (${JSON.stringify(stat.errorKinds)})${gone ? `; ${STATIC_FILE} is gone (dist/client rebuilt meanwhile?)` : ''}; measuring again…`);
    mkdirSync(STATIC_DIR, { recursive: true });
    writeFileSync(STATIC_FILE, home);
    if (!(await staticUrlFor(url, home, 10_000)).target) break;
  }
  if (ssr.errors || stat.errors) {
    const lines = server.log().split('\n').filter((l) => l.trim() && !/ 200 OK /.test(l));
    console.log(`bench: errors under load; wrangler dev log without 200 lines (tail):\n${lines.slice(-40).join('\n')}`);
  }
  if (stat.errors > 0 || stat.ok === 0 || ssr.ok === 0) {
    throw new Error(`invalid measurement: SSR ${ssr.ok} ok / ${ssr.errors} errors, static ${stat.ok} ok / ${stat.errors} errors ${JSON.stringify(stat.errorKinds)}`);
  }
  const ratio = ssr.rps / stat.rps;
  const ratioPass = ratio >= SSR_RATIO_TARGET;

  console.log('\nThroughput (identity encoding, cookies: ' + COOKIE + ')');
  printLoad('SSR home', '/', ssr);
  printLoad('static, same bytes', staticPath, stat);
  console.log(`  ratio SSR ÷ static: ${fmt(ratio, 2)}  (target ≥ ${SSR_RATIO_TARGET})  ${ratioPass ? 'PASS' : 'BELOW'}`);

  // 3. First-load JS of home.
  console.log('\nFirst-load assets of home');
  let assets;
  let source;
  const crawl = await crawlAssets(url, home);
  try {
    const profile = mkdtempSync(join(os.tmpdir(), 'livecam-bench-chromium-'));
    tempDirs.push(profile);
    assets = await browserAssets(url, profile);
    source = 'headless Chromium, requests until network idle';
    const key = (u) => new URL(u).pathname;
    const a = new Set(assets.js.map(key));
    const b = new Set(crawl.js.map(key));
    const onlyBrowser = [...a].filter((p) => !b.has(p));
    const onlyCrawl = [...b].filter((p) => !a.has(p));
    if (onlyBrowser.length || onlyCrawl.length) {
      console.log(`  note: import-graph crawl differs: only in browser [${onlyBrowser.join(', ')}], only in crawl [${onlyCrawl.join(', ')}]`);
    } else {
      console.log(`  import-graph crawl agrees (${b.size} files)`);
    }
    if (assets.failed.length) console.log(`  note: failed requests: ${assets.failed.join('; ')}`);
    if (assets.pageErrors.length) console.log(`  note: page errors: ${assets.pageErrors.join('; ')}`);
  } catch (e) {
    console.log(`  note: Chromium unavailable (${e.message.split('\n')[0]}); using the import-graph crawl`);
    assets = { js: crawl.js, css: [], islands: crawl.islands };
    source = 'import-graph crawl (entry, modulepreload, static imports, island chunks)';
  }
  const js = await sizeOf(assets.js);
  const cssUrls = assets.css.length ? assets.css : [...home.toString('utf8').matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => new URL(m[1], ssrUrl).href);
  const css = await sizeOf(cssUrls);
  const jsPass = kb(js.br) <= JS_TARGET_KB;
  console.log(`  source: ${source}; islands on home: ${assets.islands.join(', ') || 'none'}`);
  console.log(`  ${'file'.padEnd(40)} ${'raw KB'.padStart(9)} ${'br KB'.padStart(8)}`);
  for (const f of js.files) console.log(`  ${f.path.padEnd(40)} ${fmt(kb(f.raw), 2).padStart(9)} ${fmt(kb(f.br), 2).padStart(8)}`);
  console.log(`  ${'JS total'.padEnd(40)} ${fmt(kb(js.raw), 2).padStart(9)} ${fmt(kb(js.br), 2).padStart(8)}  (target ≤ ${JS_TARGET_KB} KB)  ${jsPass ? 'PASS' : 'ABOVE'}`);
  for (const f of css.files) console.log(`  ${`${f.path} (CSS, info)`.padEnd(40)} ${fmt(kb(f.raw), 2).padStart(9)} ${fmt(kb(f.br), 2).padStart(8)}`);

  // 4. The show list API against a bare route (/version: no D1, no rendering) in the same run.
  console.log(`\nAPI: ${SECONDS} s each at concurrency ${CONCURRENCY}`);
  const apiShows = await load(`${url}/api/shows`, SECONDS);
  const bare = await load(`${url}/version`, SECONDS);
  printLoad('GET /api/shows', '/api/shows', apiShows);
  printLoad('bare route', '/version', bare);
  const apiFactor = apiShows.p99 / bare.p99;
  const apiPass = apiFactor <= API_P99_FACTOR;
  console.log(`  p99 /api/shows ÷ p99 bare: ${fmt(apiFactor, 2)}  (target ≤ ${API_P99_FACTOR})  ${apiPass ? 'PASS' : 'ABOVE'}`);

  // 5. Logins (PBKDF2 at 100,000 iterations dominates).
  console.log('\nLogin:');
  const login = await benchLogin(url, { seconds: 5, concurrency: 8 });
  console.log(`  ${formatLogin(login).split('\n').join('\n  ')}`);

  // 5b. Live lobby fan-out and a forced reconnect, on a fresh server: locally the lobby objects
  // share one isolate (and its garbage) with all the rendering and API calls measured above;
  // deployed, Durable Objects do not run in the isolates that serve pages.
  await stopServer();
  url = await start(persistTo);
  console.log(`\nLobby: ${LOBBY_SOCKETS} sockets (at most ${LOBBY_SHARD_MAX} per shard), ${LOBBY_FLIPS} flips, then a forced reconnect of all…`);
  const lobby = await benchLobby(url, { sockets: LOBBY_SOCKETS, flips: LOBBY_FLIPS, opsToken: OPS_TOKEN, deflate: process.env.BENCH_LOBBY_DEFLATE === '1' });
  const lobbyPass = lobby.lastP99 <= LOBBY_P99_TARGET_MS && lobby.lost === 0 && lobby.deliveries === lobby.expected;
  console.log(`  connected in ${fmt(lobby.connectSeconds, 1)} s over shards ${JSON.stringify(lobby.shards)}`);
  console.log(`  publish → last socket, per update: p50 ${fmt(lobby.lastP50, 0)} ms, p99 ${fmt(lobby.lastP99, 0)} ms, max ${fmt(lobby.lastMax, 0)} ms`);
  console.log(`  publish → each socket: p50 ${fmt(lobby.p50, 0)} ms, p99 ${fmt(lobby.p99, 0)} ms; ${lobby.deliveries}/${lobby.expected} delivered; lost after reconnect: ${lobby.lost}`);
  const floor = await benchLobbyFloor({ sockets: LOBBY_SOCKETS, shards: 8, sends: LOBBY_FLIPS });
  console.log(`  floor (bare worker, same sockets and shards): publish → last socket p50 ${fmt(floor.lastP50, 0)} ms, p99 ${fmt(floor.lastP99, 0)} ms`);

  // 6. Concurrent debits on one account, with replays.
  console.log('\nLedger: 1,000 concurrent one-coin debits on one account (every tenth replayed)…');
  const ledger = await benchLedger(url, { debits: 1000, concurrency: 32, opsToken: OPS_TOKEN });
  const ledgerPass = ledger.lostOrDoubled === 0 && ledger.otherErrors === 0 && ledger.duplicatesRefused === ledger.requests - ledger.applied;
  console.log(
    `  ${fmt(ledger.debitsPerSecond, 0)} debits/s; applied ${ledger.applied}, replays refused ${ledger.duplicatesRefused}, other errors ${ledger.otherErrors}; balance ${ledger.balance} (expected ${ledger.expectedBalance})  ${ledgerPass ? 'PASS' : 'FAIL'}`,
  );

  await stopServer();

  // 7. Summary to paste.
  const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const machine = `Node ${process.version}, ${cpu}, ${cores} cores, ${os.platform()} ${os.arch()}`;
  console.log(`
Summary (${new Date().toISOString().slice(0, 10)}, local wrangler dev/workerd, loopback, ${CONCURRENCY} keep-alive connections, ${SECONDS} s per URL after ${WARMUP_SECONDS} s warm-up)

| Measure | req/s | p50 ms | p99 ms | Target | Result |
|---|---:|---:|---:|---|---|
| SSR home \`/\` | ${fmt(ssr.rps, 0)} | ${fmt(ssr.p50, 2)} | ${fmt(ssr.p99, 2)} | | errors ${ssr.errors} |
| Same ${home.length} bytes static \`${staticPath}\` | ${fmt(stat.rps, 0)} | ${fmt(stat.p50, 2)} | ${fmt(stat.p99, 2)} | | errors ${stat.errors} |
| Ratio SSR ÷ static | ${fmt(ratio, 2)} | | | ≥ ${SSR_RATIO_TARGET} | ${ratioPass ? 'PASS' : 'BELOW'} |
| First-load JS of home, brotli q11 (${js.files.length} files) | ${fmt(kb(js.br), 1)} KB | | | ≤ ${JS_TARGET_KB} KB | ${jsPass ? 'PASS' : 'ABOVE'} |
| CSS of home, brotli q11 (info) | ${fmt(kb(css.br), 1)} KB | | | | |
| GET /api/shows | ${fmt(apiShows.rps, 0)} | ${fmt(apiShows.p50, 2)} | ${fmt(apiShows.p99, 2)} | p99 ≤ ${API_P99_FACTOR}× bare | ${fmt(apiFactor, 2)}× ${apiPass ? 'PASS' : 'ABOVE'} |
| bare route \`/version\` | ${fmt(bare.rps, 0)} | ${fmt(bare.p50, 2)} | ${fmt(bare.p99, 2)} | | |
| POST /api/auth/login (8 parallel) | ${fmt(login.rps, 1)} | ${fmt(login.p50, 0)} | ${fmt(login.p99, 0)} | | ${fmt(login.cost.msPerLogin, 0)} ms per login (${login.cost.source}) |
| concurrent debits, one account | ${fmt(ledger.debitsPerSecond, 0)}/s | | | 0 lost or doubled | ${ledger.lostOrDoubled} ${ledgerPass ? 'PASS' : 'FAIL'} |
| show:bulkupdate publish → last of ${lobby.sockets} sockets | | ${fmt(lobby.lastP50, 0)} | ${fmt(lobby.lastP99, 0)} | p99 ≤ ${LOBBY_P99_TARGET_MS} ms, 0 lost | ${lobby.lost} lost ${lobbyPass ? 'PASS' : 'ABOVE'} |
| publish → each socket (info) | | ${fmt(lobby.p50, 0)} | ${fmt(lobby.p99, 0)} | | |
| floor: bare worker, same sockets and shards (info) | | ${fmt(floor.lastP50, 0)} | ${fmt(floor.lastP99, 0)} | | |

Machine: ${machine}. KB = 1000 bytes. Run time ${fmt((performance.now() - t0) / 1000, 0)} s.`);
}

let code = 0;
try {
  await main();
} catch (e) {
  if (interrupted) await new Promise(() => {}); // the signal handler cleans up and exits
  console.error(`\nbench failed: ${e.stack ?? e}`);
  if (server) console.error(`--- wrangler dev log (tail) ---\n${server.log().slice(-4000)}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(interrupted ? 130 : code);
