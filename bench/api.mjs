// GET /api/shows (the hottest call) against a bare route (/version: no D1, no rendering), and the
// two searches by term.
import { fmt, load, printLoad, report, SETTINGS } from './lib.mjs';

const API_P99_FACTOR = 2;

export async function benchApi(ctx) {
  const { seconds, concurrency } = SETTINGS;
  console.log(`\nAPI: ${seconds} s each at concurrency ${concurrency}`);
  const shows = await load(`${ctx.url}/api/shows`, seconds);
  const bare = await load(`${ctx.url}/version`, seconds);
  // Issue 15: searches by term (the quicksearch's call, and the search list by a name), which rank
  // name matches first.
  const quickPath = '/api/search/all?search=liv&page=1&limit=6&extend=0';
  const namePath = '/api/search/shows?search=frieda%20blue';
  const quick = await load(`${ctx.url}${quickPath}`, seconds);
  const byName = await load(`${ctx.url}${namePath}`, seconds);
  printLoad('GET /api/shows', '/api/shows', shows);
  printLoad('bare route', '/version', bare);
  printLoad('quicksearch', quickPath, quick);
  printLoad('search by name', namePath, byName);
  const factor = shows.p99 / bare.p99;
  const pass = factor <= API_P99_FACTOR;
  console.log(`  p99 /api/shows ÷ p99 bare: ${fmt(factor, 2)}  (target ≤ ${API_P99_FACTOR})  ${pass ? 'PASS' : 'ABOVE'}`);
  report('api', {
    showsRps: shows.rps, showsP50Ms: shows.p50, showsP99Ms: shows.p99, bareRps: bare.rps, bareP99Ms: bare.p99, p99Factor: factor, target: API_P99_FACTOR, pass,
    quickRps: quick.rps, quickP50Ms: quick.p50, quickP99Ms: quick.p99, nameRps: byName.rps, nameP50Ms: byName.p50, nameP99Ms: byName.p99,
    errors: shows.errors + bare.errors + quick.errors + byName.errors,
  });
  return [
    `| GET /api/shows | ${fmt(shows.rps, 0)} | ${fmt(shows.p50, 2)} | ${fmt(shows.p99, 2)} | p99 ≤ ${API_P99_FACTOR}× bare | ${fmt(factor, 2)}× ${pass ? 'PASS' : 'ABOVE'} |`,
    `| bare route \`/version\` | ${fmt(bare.rps, 0)} | ${fmt(bare.p50, 2)} | ${fmt(bare.p99, 2)} | | |`,
    `| quicksearch \`GET /api/search/all?search=liv\` (limit 6) | ${fmt(quick.rps, 0)} | ${fmt(quick.p50, 2)} | ${fmt(quick.p99, 2)} | | ${quick.errors} errors |`,
    `| search by name \`GET /api/search/shows?search=frieda blue\` | ${fmt(byName.rps, 0)} | ${fmt(byName.p50, 2)} | ${fmt(byName.p99, 2)} | | ${byName.errors} errors |`,
  ];
}
