// First-load JavaScript of home: what headless Chromium requests until the network is idle,
// checked against a crawl of the import graph, each file brotli-compressed at quality 11.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, posix } from 'node:path';
import { root } from '../scripts/lib.mjs';
import { br, fmt, kb, report, request, sleep } from './lib.mjs';
import { captureHome, COOKIE } from './ssr.mjs';

const JS_TARGET_KB = 80;
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

/** JS/CSS that home requests until network idle, seen by headless Chromium. */
async function browserAssets(url, profileDir) {
  const { chromium } = await import('playwright-core');
  const browserContext = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
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
    // The service worker's script is not the page's: it is registered after the load event and
    // runs in its own thread, never on the page's main thread (reported beside, for information).
    const worker = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker?.getRegistration();
      return (reg?.active ?? reg?.waiting ?? reg?.installing)?.scriptURL ?? null;
    });
    const serviceWorker = [...js].filter((u) => worker && u.split('?')[0] === worker.split('?')[0]);
    for (const u of serviceWorker) js.delete(u);
    return { js: [...js], css: [...css], failed, pageErrors, islands, serviceWorker };
  } finally {
    await browserContext.close().catch(() => {});
  }
}

/** Cross-check without a browser: the entry (the start script's import), static imports, island dynamic imports. */
async function crawlAssets(url, html) {
  const text = html.toString('utf8');
  const entries = [...text.matchAll(/<script type="module"[^>]*>[^<]*\bimport\("([^"]+)"\)/g)].map((m) => m[1]);
  if (!entries.length) throw new Error('crawl: home has no start script importing the entry');
  // Island name → chunk base name from the registry (e.g. DrawerToggle → drawer-toggle).
  const registry = readFileSync(join(root, 'src/client/islands.ts'), 'utf8');
  const chunkOf = Object.fromEntries([...registry.matchAll(/(\w+)\s*:\s*\(\)\s*=>\s*import\(\s*['"`]\.\/([^'"`]+)['"`]\s*\)/g)].map((m) => [m[1], posix.basename(m[2]).replace(/\.island$/, '')]));
  // A members' island (data-members) on a visitor's page loads its code only after a login.
  const islandTags = [...text.matchAll(/<[a-z]+ [^>]*data-island="([^"]+)"[^>]*>/g)].filter((m) => !m[0].includes('data-members="1"'));
  const present = [...new Set(islandTags.map((m) => m[1]))];
  const wanted = new Set(present.map((n) => chunkOf[n]).filter(Boolean));
  const seen = new Set();
  const queue = entries.map((e) => new URL(e, `${url}/`).href);
  while (queue.length) {
    const u = queue.shift();
    const key = u.split('?')[0];
    if (seen.has(key)) continue;
    seen.add(key);
    const r = await request(u);
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
    const r = await request(u);
    if (r.status !== 200) throw new Error(`${u} answered ${r.status}`);
    files.push({ path: new URL(u).pathname, raw: r.body.length, br: br(r.body) });
  }
  files.sort((a, b) => b.br - a.br);
  return { files, raw: files.reduce((s, f) => s + f.raw, 0), br: files.reduce((s, f) => s + f.br, 0) };
}

export async function benchJs(ctx) {
  const url = ctx.url;
  const home = await captureHome(url);
  console.log('\nFirst-load assets of home');
  let assets;
  let source;
  const crawl = await crawlAssets(url, home);
  try {
    const profile = mkdtempSync(join(os.tmpdir(), 'livecam-bench-chromium-'));
    ctx.onCleanup(() => rmSync(profile, { recursive: true, force: true }));
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
    source = 'import-graph crawl (entry, static imports, island chunks)';
  }
  const js = await sizeOf(assets.js);
  const worker = await sizeOf(assets.serviceWorker ?? []);
  const cssUrls = assets.css.length ? assets.css : [...home.toString('utf8').matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => new URL(m[1], `${url}/`).href);
  const css = await sizeOf(cssUrls);
  const jsPass = kb(js.br) <= JS_TARGET_KB;
  console.log(`  source: ${source}; islands on home: ${assets.islands.join(', ') || 'none'}`);
  console.log(`  ${'file'.padEnd(40)} ${'raw KB'.padStart(9)} ${'br KB'.padStart(8)}`);
  for (const f of js.files) console.log(`  ${f.path.padEnd(40)} ${fmt(kb(f.raw), 2).padStart(9)} ${fmt(kb(f.br), 2).padStart(8)}`);
  console.log(`  ${'JS total'.padEnd(40)} ${fmt(kb(js.raw), 2).padStart(9)} ${fmt(kb(js.br), 2).padStart(8)}  (target ≤ ${JS_TARGET_KB} KB)  ${jsPass ? 'PASS' : 'ABOVE'}`);
  for (const f of worker.files) console.log(`  ${`${f.path} (service worker, info)`.padEnd(40)} ${fmt(kb(f.raw), 2).padStart(9)} ${fmt(kb(f.br), 2).padStart(8)}`);
  for (const f of css.files) console.log(`  ${`${f.path} (CSS, info)`.padEnd(40)} ${fmt(kb(f.raw), 2).padStart(9)} ${fmt(kb(f.br), 2).padStart(8)}`);
  report('js', { totalBrotliKb: kb(js.br), totalRawKb: kb(js.raw), files: js.files.length, cssBrotliKb: kb(css.br), serviceWorkerBrotliKb: kb(worker.br), target: JS_TARGET_KB, pass: jsPass, source });
  return [
    `| First-load JS of home, brotli q11 (${js.files.length} files) | ${fmt(kb(js.br), 1)} KB | | | ≤ ${JS_TARGET_KB} KB | ${jsPass ? 'PASS' : 'ABOVE'} |`,
    `| CSS of home, brotli q11 (info) | ${fmt(kb(css.br), 1)} KB | | | | |`,
  ];
}
