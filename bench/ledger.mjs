// Concurrent debits on one account through the operator adjustment call (the ledger path every
// purchase uses): debits per second, and a check that none was lost or applied twice.
import { performance } from 'node:perf_hooks';
import { json, request } from './lib.mjs';

async function post(baseUrl, path, body, token) {
  const res = await request(new URL(path, baseUrl).href, { method: 'POST', body, headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: json(res) };
}

/**
 * Credits `debits` coins to the demo member (id 1), then runs `debits` one-coin debits at
 * `concurrency`, every tenth one sent twice with the same reference (a replay).
 */
export async function benchLedger(baseUrl, { debits = 1000, concurrency = 32, opsToken, userId = 1 }) {
  const run = Date.now();
  const start = await post(baseUrl, `/api/ops/users/${userId}/coins`, { amount: debits, ref: `bench-fund-${run}` }, opsToken);
  if (start.status !== 200) throw new Error(`funding failed: ${start.status} ${JSON.stringify(start.body)}`);
  const before = start.body.coins;
  const jobs = [];
  for (let i = 0; i < debits; i++) {
    jobs.push({ ref: `bench-${run}-${i}` });
    if (i % 10 === 0) jobs.push({ ref: `bench-${run}-${i}`, replay: true });
  }
  let applied = 0;
  let duplicates = 0;
  let other = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const r = await post(baseUrl, `/api/ops/users/${userId}/coins`, { amount: -1, ref: job.ref }, opsToken);
        if (r.status === 200) applied++;
        else if (r.status === 409) duplicates++;
        else other++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const end = await post(baseUrl, `/api/ops/users/${userId}/coins`, { amount: 1, ref: `bench-check-${run}` }, opsToken);
  const after = end.body.coins - 1;
  return {
    requests: jobs.length,
    seconds,
    debitsPerSecond: applied / seconds,
    applied,
    duplicatesRefused: duplicates,
    otherErrors: other,
    expectedBalance: before - debits,
    balance: after,
    lostOrDoubled: Math.abs(before - debits - after) + Math.abs(applied - debits),
  };
}
