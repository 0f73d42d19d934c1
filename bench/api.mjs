// GET /api/shows (the hottest call) against a bare route (/version: no D1, no rendering).
import { fmt, load, printLoad, report, SETTINGS } from './lib.mjs';

const API_P99_FACTOR = 2;

export async function benchApi(ctx) {
  const { seconds, concurrency } = SETTINGS;
  console.log(`\nAPI: ${seconds} s each at concurrency ${concurrency}`);
  const shows = await load(`${ctx.url}/api/shows`, seconds);
  const bare = await load(`${ctx.url}/version`, seconds);
  printLoad('GET /api/shows', '/api/shows', shows);
  printLoad('bare route', '/version', bare);
  const factor = shows.p99 / bare.p99;
  const pass = factor <= API_P99_FACTOR;
  console.log(`  p99 /api/shows ÷ p99 bare: ${fmt(factor, 2)}  (target ≤ ${API_P99_FACTOR})  ${pass ? 'PASS' : 'ABOVE'}`);
  report('api', { showsRps: shows.rps, showsP50Ms: shows.p50, showsP99Ms: shows.p99, bareRps: bare.rps, bareP99Ms: bare.p99, p99Factor: factor, target: API_P99_FACTOR, pass, errors: shows.errors + bare.errors });
  return [
    `| GET /api/shows | ${fmt(shows.rps, 0)} | ${fmt(shows.p50, 2)} | ${fmt(shows.p99, 2)} | p99 ≤ ${API_P99_FACTOR}× bare | ${fmt(factor, 2)}× ${pass ? 'PASS' : 'ABOVE'} |`,
    `| bare route \`/version\` | ${fmt(bare.rps, 0)} | ${fmt(bare.p50, 2)} | ${fmt(bare.p99, 2)} | | |`,
  ];
}
