// SSR home against the same bytes served statically by the same worker: their req/s ratio.
import { existsSync, mkdirSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, load, printLoad, report, request, SETTINGS, sleep, state } from './lib.mjs';
import { root } from '../scripts/lib.mjs';

const SSR_RATIO_TARGET = 0.5;
export const COOKIE = 'splash18=1; consent_analytics=1';
// Identity: the worker's own work is measured, not workerd's on-the-fly gzip (Cloudflare's edge
// compresses in production). Same request headers for both URLs.
export const HEADERS = { Cookie: COOKIE, 'Accept-Encoding': 'identity', Accept: 'text/html' };

const STATIC_DIR = join(root, 'dist', 'client', 'static');
const STATIC_FILE = join(STATIC_DIR, 'bench-home.html');
const STATIC_PATH = '/static/bench-home.html';

/** GET / with the bench cookies, uncompressed. */
export async function captureHome(url) {
  const r = await request(`${url}/`, { headers: HEADERS });
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
      const r = await request(`${url}${STATIC_PATH}`, { headers: HEADERS });
      let target = `${url}${STATIC_PATH}`;
      let res = r;
      if (r.status >= 300 && r.status < 400 && r.headers.location) {
        target = new URL(r.headers.location, `${url}${STATIC_PATH}`).href;
        if (!target.startsWith(`${url}/`)) throw new Error(`redirect leaves the server: ${target}`);
        res = await request(target, { headers: HEADERS });
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

function removeStaticFile(createdDir) {
  rmSync(STATIC_FILE, { force: true });
  if (createdDir && existsSync(STATIC_DIR) && readdirSync(STATIC_DIR).length === 0) rmdirSync(STATIC_DIR);
}

export async function benchSsr(ctx) {
  const home = await captureHome(ctx.url);
  const createdDir = !existsSync(STATIC_DIR);
  mkdirSync(STATIC_DIR, { recursive: true });
  writeFileSync(STATIC_FILE, home);
  ctx.onCleanup(() => removeStaticFile(createdDir));
  // wrangler dev watches the assets directory; if the new file does not show up, restart.
  let found = await staticUrlFor(ctx.url, home, 8_000);
  if (!found.target) {
    console.log(`bench: ${STATIC_PATH} not served yet (${found.last}); restarting the server…`);
    await ctx.restart();
    found = await staticUrlFor(ctx.url, home, 5_000);
    if (!found.target) throw new Error(`${STATIC_PATH} is not served with the captured bytes: ${found.last}`);
  }
  const ssrUrl = `${ctx.url}/`;
  const staticUrl = found.target;
  const staticPath = new URL(staticUrl).pathname;
  console.log(
    `bench: ${staticPath} serves the ${home.length} captured bytes identically` +
      (found.redirected ? ` (${STATIC_PATH} answers ${found.redirected} → ${staticPath}: assets html_handling)` : ''),
  );

  // The static file must answer 200 with the same length every time; if not (e.g. another `vite
  // build` in this checkout emptied dist/client meanwhile), write it again and measure both once
  // more; still failing means the run is invalid.
  const { seconds, warmupSeconds, concurrency } = SETTINGS;
  console.log(`bench: warm-up ${warmupSeconds} s per URL, then ${seconds} s per URL at concurrency ${concurrency} (keep-alive, loopback)…`);
  let ssr;
  let stat;
  for (let attempt = 1; ; attempt++) {
    await load(ssrUrl, warmupSeconds, { headers: HEADERS });
    await load(staticUrl, warmupSeconds, { headers: HEADERS, expectBytes: home.length });
    ssr = await load(ssrUrl, seconds, { headers: HEADERS });
    stat = await load(staticUrl, seconds, { headers: HEADERS, expectBytes: home.length });
    if (stat.errors === 0 || attempt === 2 || state.interrupted) break;
    console.log(`bench: the static URL failed ${stat.errors}× (${JSON.stringify(stat.errorKinds)}); measuring again…`);
    mkdirSync(STATIC_DIR, { recursive: true });
    writeFileSync(STATIC_FILE, home);
    if (!(await staticUrlFor(ctx.url, home, 10_000)).target) break;
  }
  if (ssr.errors || stat.errors) {
    const lines = ctx.server.log().split('\n').filter((l) => l.trim() && !/ 200 OK /.test(l));
    console.log(`bench: errors under load; wrangler dev log without 200 lines (tail):\n${lines.slice(-40).join('\n')}`);
  }
  if (stat.errors > 0 || stat.ok === 0 || ssr.ok === 0) {
    throw new Error(`invalid measurement: SSR ${ssr.ok} ok / ${ssr.errors} errors, static ${stat.ok} ok / ${stat.errors} errors ${JSON.stringify(stat.errorKinds)}`);
  }
  const ratio = ssr.rps / stat.rps;
  const pass = ratio >= SSR_RATIO_TARGET;
  console.log('\nThroughput (identity encoding, cookies: ' + COOKIE + ')');
  printLoad('SSR home', '/', ssr);
  printLoad('static, same bytes', staticPath, stat);
  console.log(`  ratio SSR ÷ static: ${fmt(ratio, 2)}  (target ≥ ${SSR_RATIO_TARGET})  ${pass ? 'PASS' : 'BELOW'}`);
  report('ssr', { ssrRps: ssr.rps, ssrP50Ms: ssr.p50, ssrP99Ms: ssr.p99, staticRps: stat.rps, staticP50Ms: stat.p50, staticP99Ms: stat.p99, ratio, target: SSR_RATIO_TARGET, pass, bytes: home.length });
  return [
    `| SSR home \`/\` | ${fmt(ssr.rps, 0)} | ${fmt(ssr.p50, 2)} | ${fmt(ssr.p99, 2)} | | errors ${ssr.errors} |`,
    `| Same ${home.length} bytes static \`${staticPath}\` | ${fmt(stat.rps, 0)} | ${fmt(stat.p50, 2)} | ${fmt(stat.p99, 2)} | | errors ${stat.errors} |`,
    `| Ratio SSR ÷ static | ${fmt(ratio, 2)} | | | ≥ ${SSR_RATIO_TARGET} | ${pass ? 'PASS' : 'BELOW'} |`,
  ];
}
