// Concurrent debits on one account through the operator adjustment call (the ledger path every
// purchase uses): debits per second, and a check that none was lost or applied twice.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(baseUrl, path, body, token) {
  const u = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
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
