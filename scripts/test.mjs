// npm test: types, unit tests, Workers-runtime tests, then end to end in Chromium.
// Ends with one "N passed, N failed" line over all suites.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildClient, root, run } from './lib.mjs';

const vitest = join(root, 'node_modules', '.bin', 'vitest');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const suites = [
  ['unit', 'vitest.unit.config.ts'],
  ['workers', 'vitest.workers.config.ts'],
  ['e2e', 'vitest.e2e.config.ts'],
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

for (const [name, config] of suites) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n▶ ${name} tests`);
  const out = join(root, '.tmp', `report-${name}.json`);
  rmSync(out, { force: true });
  try {
    await run(vitest, ['run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  } catch {
    broken = true;
  }
  if (!count(out)) {
    failed++;
    broken = true;
  }
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
