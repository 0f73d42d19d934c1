// What every measure shares: one HTTP helper over keep-alive loopback connections, one load loop,
// one percentile, number formatting, and the one-line JSON result (`BENCH {...}`) scripts read.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';

const num = (name, fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export const SETTINGS = {
  seconds: num('BENCH_SECONDS', 10), // measured duration per URL
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 2),
  concurrency: num('BENCH_CONCURRENCY', 16),
  maxRequests: num('BENCH_MAX_REQUESTS', 500_000), // per measured URL, a bound besides time
  lobbySockets: num('BENCH_LOBBY_SOCKETS', 10000),
  lobbyFlips: num('BENCH_LOBBY_FLIPS', 100), // enough updates for a p99 that is not just the maximum
};

const REQUEST_TIMEOUT_MS = 10_000;
export const KB = 1000; // kB as Vite prints them

/** Set by the runner's signal handler: loops stop early. */
export const state = { interrupted: false };

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
export const kb = (b) => b / KB;
export const br = (buf) =>
  brotliCompressSync(buf, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: buf.length } }).length;

/** The p-th percentile (nearest rank) of ascending numbers; NaN for none. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Prints a measure's figures as one line of JSON after `BENCH `. */
export function report(name, figures) {
  const round = (v) => (typeof v === 'number' ? (Number.isFinite(v) ? Math.round(v * 100) / 100 : null) : v);
  console.log(`BENCH ${JSON.stringify({ name, ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round(v)])) })}`);
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 });

/**
 * One request to the loopback server. `body` (an object) is sent as JSON; with keep=false the
 * answer's body is only counted (load loops), else returned as a Buffer.
 */
export function request(url, { method = 'GET', headers = {}, body, keep = true, via = agent } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    if (u.hostname !== '127.0.0.1') return reject(new Error(`not loopback: ${url}`));
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent: via,
        timeout: REQUEST_TIMEOUT_MS,
        headers: { ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}), ...headers },
      },
      (res) => {
        const chunks = [];
        let bytes = 0;
        res.on('data', (d) => {
          bytes += d.length;
          if (keep) chunks.push(d);
        });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes, body: keep ? Buffer.concat(chunks) : null }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The JSON of an answer's body (null when empty). */
export const json = (res) => (res.body && res.body.length ? JSON.parse(res.body.toString('utf8')) : null);

/**
 * `concurrency` parallel keep-alive loops over one URL for `seconds` (and at most `maxRequests`):
 * req/s of 200 answers (of `expectBytes` length when given), latency percentiles, errors by kind.
 */
export async function load(url, seconds, { headers = {}, concurrency = SETTINGS.concurrency, maxRequests = SETTINGS.maxRequests, expectBytes = null } = {}) {
  const via = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const latencies = new Float64Array(maxRequests);
  let n = 0;
  let issued = 0;
  let ok = 0;
  let failed = 0; // no response at all
  let bytes = 0;
  const errorKinds = new Map();
  const noteError = (kind) => errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  async function loop() {
    while (performance.now() < end && issued < maxRequests && !state.interrupted) {
      issued++;
      const s = performance.now();
      try {
        const r = await request(url, { headers, keep: false, via });
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
  await Promise.all(Array.from({ length: concurrency }, loop));
  via.destroy();
  const elapsed = (performance.now() - t0) / 1000;
  const sorted = latencies.subarray(0, n).sort();
  const errors = [...errorKinds.values()].reduce((a, b) => a + b, 0);
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

export function printLoad(label, path, r) {
  const kinds = Object.entries(r.errorKinds)
    .map(([k, v]) => `${k}×${v}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(22)} ${path.padEnd(26)} ${String(r.requests).padStart(7)} req  ${fmt(r.rps).padStart(8)} req/s  ` +
      `p50 ${fmt(r.p50, 2).padStart(7)} ms  p99 ${fmt(r.p99, 2).padStart(7)} ms  ${fmt(r.mbps)} MB/s  errors ${r.errors}${kinds ? ` (${kinds})` : ''}`,
  );
}

/** A cookie jar client: CSRF cookie and header like the page's API layer. */
export class Http {
  constructor(base) {
    this.base = base;
    this.jar = new Map();
  }
  absorb(res) {
    for (const line of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  headers(extra = {}) {
    return { Cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '), 'X-XSRF-TOKEN': this.jar.get('XSRF-TOKEN') ?? '', ...extra };
  }
  async call(method, path, body, extra) {
    if (method !== 'GET' && !this.jar.has('XSRF-TOKEN')) this.absorb(await request(`${this.base}/api/auth/csrf-cookie`));
    const res = await request(`${this.base}${path}`, { method, body, headers: this.headers(extra) });
    this.absorb(res);
    try {
      return { status: res.status, body: json(res) };
    } catch {
      return { status: res.status, body: res.body?.toString('utf8').slice(0, 300) ?? null };
    }
  }
}

/**
 * The address of the worker's own workerd under a `wrangler dev` (pid: wrangler's), bypassing
 * wrangler's local proxy: that proxy holds six file descriptors per WebSocket, so with this
 * machine's 20,000 per process it cannot carry more than about 3,000 sockets, while the worker's
 * workerd holds one. Of the two workerd processes wrangler starts, the proxy is the first; the
 * worker's entry is the one of its listening sockets that answers /version.
 */
export async function directUrl(pid) {
  const children = (p) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const all = [];
  for (const queue = [pid]; queue.length; ) {
    const p = queue.shift();
    all.push(p);
    queue.push(...children(p));
  }
  const workerd = all.filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--socket-addr=entry=');
    } catch {
      return false;
    }
  });
  if (workerd.length < 2) throw new Error(`direct workerd not found (${workerd.length} workerd processes)`);
  const mine = Math.max(...workerd);
  const listening = execSync('ss -ltnpH', { encoding: 'utf8' })
    .split('\n')
    .map((l) => ({ addr: /\s(127\.0\.0\.1:\d+)\s/.exec(l)?.[1], m: new RegExp(`pid=${mine},fd=(\\d+)`).exec(l) }))
    .filter((x) => x.addr && x.m)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]));
  for (const { addr } of listening) {
    try {
      if ((await fetch(`http://${addr}/version`)).status === 200) return `http://${addr}`;
    } catch {
      // not an HTTP socket
    }
  }
  throw new Error('direct workerd address not found');
}
