// npm test: types, unit tests, Workers-runtime tests, then end to end in Chromium.
// Ends with one "N passed, N failed" line over all suites.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildClient, root, run } from './lib.mjs';

const vitest = join(root, 'node_modules', '.bin', 'vitest');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
// [name, config, minutes without a finished test file after which the run counts as stalled]
const suites = [
  ['unit', 'vitest.unit.config.ts', 5],
  ['workers', 'vitest.workers.config.ts', 6],
  ['e2e', 'vitest.e2e.config.ts', 10],
];
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let broken = false;
const failures = [];

function count(file) {
  if (!existsSync(file)) return false;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // Named again at the very end: CI keeps only the tail of a run's output.
  for (const file of report.testResults ?? []) {
    const name = file.name.slice(root.length + 1);
    const bad = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of bad) failures.push(`${name} > ${t.fullName}: ${(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)}`);
    if (bad.length === 0 && file.status === 'failed') failures.push(`${name}: ${(file.message ?? '').split('\n')[0].slice(0, 300)}`);
  }
  return true;
}

if (only.length === 0 || only.includes('types')) {
  console.log('\n▶ typecheck');
  // The three projects at once: tsc runs on one core, so on two they take the time of the longest
  // instead of the sum (38 s -> about 20 s here).
  const projects = ['tsconfig.json', 'tsconfig.client.json', 'tsconfig.node.json'];
  const results = await Promise.allSettled(projects.map((project) => run(tsc, ['-p', project, '--noEmit'])));
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') passed++;
    else {
      failed++;
      broken = true;
      failures.push(`typecheck ${projects[i]}`);
    }
  });
}

console.log('\n▶ build client');
await buildClient();

/**
 * Runs one suite's vitest, its output passed through. A run in which no test file finishes for
 * `stallMinutes` is stopped (its whole process group, workerd included) and reported as stalled:
 * vitest-pool-workers can stall mid-run on a busy machine (cloudflare/workers-sdk#15498; seen here
 * once: after "Network connection lost" both workerds spun at full CPU, no file finished for 50 min).
 * The slowest files take about 1.5 min, so the limits are far above any honest run.
 */
function runSuite(config, out, stallMinutes) {
  return new Promise((resolvePromise) => {
    const child = spawn(vitest, ['run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let last = Date.now();
    let stalled = false;
    const watch = (stream, to) =>
      stream.on('data', (d) => {
        to.write(d);
        // A finished file: " ✓ tests/…", " ❯ tests/…" or " × tests/…" at the start of a line.
        if (/^\s*\S+\s+tests\/\S+\.test\.tsx?/m.test(String(d).replace(/\x1b\[[0-9;]*m/g, ''))) last = Date.now();
      });
    watch(child.stdout, process.stdout);
    watch(child.stderr, process.stderr);
    const timer = setInterval(() => {
      if (Date.now() - last < stallMinutes * 60_000) return;
      stalled = true;
      console.log(`\n✗ no test file finished for ${stallMinutes} min: the run is stopped`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }, 10_000);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolvePromise({ ok: code === 0 && !stalled, stalled });
    });
  });
}

for (const [name, config, stallMinutes] of suites) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n▶ ${name} tests`);
  const out = join(root, '.tmp', `report-${name}.json`);
  rmSync(out, { force: true });
  let result = await runSuite(config, out, stallMinutes);
  if (result.stalled) {
    // The stall is the tool's, not a test's: the suite runs once more from the start.
    console.log(`\n▶ ${name} tests, again after the stall`);
    rmSync(out, { force: true });
    result = await runSuite(config, out, stallMinutes);
    if (result.stalled) failures.push(`${name}: stalled twice (no test file finished for ${stallMinutes} min)`);
  }
  if (!result.ok) broken = true;
  if (result.stalled || !count(out)) {
    failed++;
    broken = true;
  }
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
