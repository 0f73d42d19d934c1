// Login benchmark: POST /api/auth/login for the demo member against a running server.
//
//   import { benchLogin, formatLogin } from './login.mjs';
//   const r = await benchLogin(url, { seconds: 5, concurrency: 8 });
//   console.log(formatLogin(r));
//
// `npm run bench -- login` runs it alone against a throwaway server.
//
// What it measures:
// - Throughput: `concurrency` parallel loops over keep-alive connections (node:http), each
//   sending logins one after another for `seconds` after a short warm-up; req/s of 200 answers,
//   p50 and p99 latency, errors by kind. The CSRF cookie is fetched once and reused, like the
//   client does; the visitor session cookie too, so each login is one auth token, not a new session.
//   Only failed logins count towards the throttle, so successful ones can run flat out.
// - Cost per login: `sequential` logins one at a time (nothing else in flight). When the worker
//   sends a Server-Timing header its total is used (server time); otherwise the client-measured
//   latency is reported, an upper bound of the CPU time (it includes wrangler's proxy, loopback
//   HTTP and D1). For reference, the time of the password hash alone (HMAC pepper + PBKDF2-SHA256,
//   100,000 iterations, as src/server/lib/password.ts) is measured in this Node process.
import http from 'node:http';
import { createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fmt, percentile } from './lib.mjs';

export const DEMO_LOGIN = { username: 'demo', password: 'demo-pass-2026' };
const REQUEST_TIMEOUT_MS = 10_000;
const PBKDF2_ITERATIONS = 100_000;

function send(agent, base, method, path, { headers = {}, body } = {}) {
  return new Promise((resolveSend, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          'Accept-Encoding': 'identity',
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => resolveSend({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** name -> raw value from the Set-Cookie headers of a response. */
function cookiesOf(res) {
  const out = {};
  for (const line of res.headers['set-cookie'] ?? []) {
    const m = /^([^=;\s]+)=([^;]*)/.exec(line);
    if (m && m[2] !== '') out[m[1]] = m[2];
  }
  return out;
}

/** Total duration in ms of a Server-Timing header (`name;dur=1.2, other;dur=3`), or null. */
export function serverTimingMs(value) {
  if (!value) return null;
  const text = Array.isArray(value) ? value.join(',') : value;
  // Prefer an explicit total metric; otherwise add up the parts.
  const metrics = text.split(',').map((m) => {
    const name = m.split(';')[0].trim();
    const dur = /;\s*dur=([\d.]+)/.exec(m)?.[1];
    return { name, dur: dur === undefined ? null : Number(dur) };
  });
  const withDur = metrics.filter((m) => m.dur !== null && Number.isFinite(m.dur));
  if (withDur.length === 0) return null;
  const total = withDur.find((m) => /^(total|app|worker)$/i.test(m.name));
  return total ? total.dur : withDur.reduce((a, m) => a + m.dur, 0);
}

/** Time of the password hash alone in this process (same construction as the worker). */
export function pbkdf2ReferenceMs(runs = 5, pepper = 'bench-pepper') {
  const salt = randomBytes(16);
  const times = [];
  for (let i = 0; i < runs + 1; i++) {
    const t = performance.now();
    const peppered = createHmac('sha256', pepper).update(DEMO_LOGIN.password).digest();
    pbkdf2Sync(peppered, salt, PBKDF2_ITERATIONS, 32, 'sha256');
    if (i > 0) times.push(performance.now() - t); // the first run warms up
  }
  return times.reduce((a, b) => a + b, 0) / times.length;
}

/**
 * Measures POST /api/auth/login for the demo member on `baseUrl` (http, e.g. http://127.0.0.1:8787).
 * Throws when a login does not work at all (wrong seed or pepper, server down).
 */
export async function benchLogin(
  baseUrl,
  { seconds = 5, concurrency = 8, warmupSeconds = 1, sequential = 20, username = DEMO_LOGIN.username, password = DEMO_LOGIN.password } = {},
) {
  const base = new URL(baseUrl);
  if (base.protocol !== 'http:') throw new Error(`benchLogin: http only, got ${baseUrl}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  try {
    // The session cookie and its CSRF token once (reused, as the client does; the token is bound
    // to that session id), then the visitor session row.
    const csrfRes = await send(agent, base, 'GET', '/api/auth/csrf-cookie');
    const xsrf = cookiesOf(csrfRes)['XSRF-TOKEN'];
    const sid = cookiesOf(csrfRes).lc_sid;
    if (csrfRes.status !== 204 || !xsrf || !sid) throw new Error(`benchLogin: auth/csrf-cookie answered ${csrfRes.status} without XSRF-TOKEN and lc_sid`);
    await send(agent, base, 'GET', '/api/session/init', { headers: { Cookie: `XSRF-TOKEN=${xsrf}; lc_sid=${sid}` } });
    const headers = {
      Cookie: `XSRF-TOKEN=${xsrf}; lc_sid=${sid}`,
      'X-XSRF-TOKEN': decodeURIComponent(xsrf),
    };
    const body = JSON.stringify({ username, password });
    const login = () => send(agent, base, 'POST', '/api/auth/login', { headers, body });

    const first = await login();
    if (first.status !== 200) throw new Error(`benchLogin: login answered ${first.status}: ${first.body.toString().slice(0, 300)}`);
    const user = JSON.parse(first.body.toString()).user;
    if (user?.name !== username) throw new Error(`benchLogin: login answered an unexpected body: ${first.body.toString().slice(0, 300)}`);

    // Cost per login: one at a time.
    for (let i = 0; i < 3; i++) await login();
    const seqLatencies = [];
    const serverTimes = [];
    for (let i = 0; i < sequential; i++) {
      const t = performance.now();
      const r = await login();
      seqLatencies.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`benchLogin: sequential login answered ${r.status}`);
      const st = serverTimingMs(r.headers['server-timing']);
      if (st !== null) serverTimes.push(st);
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const useServer = serverTimes.length === seqLatencies.length && serverTimes.length > 0;
    const cost = {
      msPerLogin: useServer ? mean(serverTimes) : mean(seqLatencies),
      source: useServer ? 'server (Server-Timing)' : 'client latency at concurrency 1 (upper bound; no Server-Timing header)',
      clientMeanMs: mean(seqLatencies),
      clientP50Ms: percentile([...seqLatencies].sort((a, b) => a - b), 50),
      samples: seqLatencies.length,
      pbkdf2ReferenceMs: pbkdf2ReferenceMs(),
    };

    // Throughput.
    async function run(durationS, record) {
      const latencies = [];
      let ok = 0;
      let failed = 0;
      const errorKinds = {};
      const note = (k) => (errorKinds[k] = (errorKinds[k] ?? 0) + 1);
      const t0 = performance.now();
      const end = t0 + durationS * 1000;
      async function loop() {
        while (performance.now() < end) {
          const s = performance.now();
          try {
            const r = await login();
            latencies.push(performance.now() - s);
            if (r.status === 200) ok++;
            else note(`HTTP ${r.status}`);
          } catch (e) {
            failed++;
            note(e.code ?? e.message);
          }
        }
      }
      await Promise.all(Array.from({ length: concurrency }, loop));
      const elapsed = (performance.now() - t0) / 1000;
      if (!record) return null;
      const sorted = Float64Array.from(latencies).sort();
      return {
        requests: latencies.length + failed,
        ok,
        errors: latencies.length + failed - ok,
        errorKinds,
        seconds: elapsed,
        rps: ok / elapsed,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
      };
    }
    if (warmupSeconds > 0) await run(warmupSeconds, false);
    const load = await run(seconds, true);
    return { url: `${base.origin}/api/auth/login`, concurrency, ...load, cost };
  } finally {
    agent.destroy();
  }
}

/** A few report lines in the style of bench/run.mjs. */
export function formatLogin(r) {
  const errs = r.errors ? `, errors ${r.errors} ${JSON.stringify(r.errorKinds)}` : '';
  return [
    `POST /api/auth/login (demo member, ${r.concurrency} parallel, keep-alive): ${fmt(r.rps)} req/s, p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, ${r.requests} requests in ${fmt(r.seconds)} s${errs}`,
    `  per login: ${fmt(r.cost.msPerLogin)} ms (${r.cost.source}; ${r.cost.samples} sequential logins, p50 ${fmt(r.cost.clientP50Ms)} ms)`,
    `  password hash alone (HMAC + PBKDF2-SHA256 ${PBKDF2_ITERATIONS.toLocaleString('en')} iterations, in Node): ${fmt(r.cost.pbkdf2ReferenceMs)} ms`,
  ].join('\n');
}
