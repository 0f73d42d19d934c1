// The store (issue 13): buys per second on one account, with a check that no purchase was lost or
// charged twice, and the media stream through the worker: time to first byte of a 206 and the
// throughput of whole parts.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { json, percentile, request } from './lib.mjs';

const DEMO = { username: 'demo', password: 'demo-pass-2026' };

function cookiesOf(res) {
  const out = {};
  for (const line of res.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/** Logs the demo member in; answers the headers of their requests. */
async function loginDemo(base) {
  const jar = {};
  const headers = () => ({ Cookie: Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; '), 'X-XSRF-TOKEN': decodeURIComponent(jar['XSRF-TOKEN'] ?? '') });
  Object.assign(jar, cookiesOf(await request(`${base}/api/auth/csrf-cookie`)));
  const res = await request(`${base}/api/auth/login`, { method: 'POST', body: DEMO, headers: headers() });
  if (res.status !== 200) throw new Error(`benchStore: login answered ${res.status}`);
  Object.assign(jar, cookiesOf(res));
  return headers();
}

/** One request's time to its first byte and its body length. */
function timed(url, headers) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const t0 = performance.now();
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, headers, agent: false }, (res) => {
      const ttfb = performance.now() - t0;
      let bytes = 0;
      res.on('data', (d) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode, ttfb, bytes, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Funds the demo member, then buys `videos` paid videos at `concurrency` (every fifth one sent
 * twice: the repeat must answer "already" and charge nothing), then streams a bought part.
 */
export async function benchStore(baseUrl, { videos = 200, concurrency = 16, opsToken, userId = 1, streamRequests = 50 }) {
  const base = baseUrl.replace(/\/$/, '');
  const headers = await loginDemo(base);
  const fund = await request(`${base}/api/ops/users/${userId}/coins`, { method: 'POST', body: { amount: 100_000, ref: `bench-store-${Date.now()}` }, headers: { Authorization: `Bearer ${opsToken}` } });
  if (fund.status !== 200) throw new Error(`benchStore: funding answered ${fund.status}`);
  const before = json(fund).coins;

  const picks = [];
  for (let page = 1; picks.length < videos && page < 50; page++) {
    const list = json(await request(`${base}/api/search/videos?limit=48&page=${page}&sort=price_asc`, { headers }));
    for (const v of list.data) if (v.price > 0 && !v.owned && picks.length < videos) picks.push(v);
    if (page >= list.last_page) break;
  }
  const jobs = picks.flatMap((v, i) => (i % 5 === 0 ? [v, v] : [v]));
  let bought = 0;
  let repeats = 0;
  let other = 0;
  let spent = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const v = jobs[next++];
        const res = await request(`${base}/api/videos/buy/${v.ccid}/1`, { method: 'POST', body: { use_voucher: 0 }, headers });
        const body = json(res);
        if (res.status === 200 && !body.already) {
          bought++;
          spent += v.price;
        } else if (res.status === 200) repeats++;
        else other++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const check = await request(`${base}/api/ops/users/${userId}/coins`, { method: 'POST', body: { amount: 1, ref: `bench-store-check-${Date.now()}` }, headers: { Authorization: `Bearer ${opsToken}` } });
  const balance = json(check).coins - 1;
  const expected = before - picks.reduce((s, v) => s + v.price, 0);
  const buys = { requests: jobs.length, seconds, buysPerSecond: jobs.length / seconds, bought, repeats, otherErrors: other, balance, expected, lostOrDoubled: Math.abs(balance - expected) + Math.abs(bought - picks.length) + Math.abs(spent - (before - balance)) };

  // The stream: a bought part through /media (the worker checks the purchase on each request).
  const play = picks.length ? await request(`${base}/api/videos/play/${picks[0].ccid}/1`, { headers }) : null;
  const url = play?.status === 200 ? `${base}${json(play).url}` : null;
  const probe = url ? await timed(url, { ...headers, Range: 'bytes=0-65535' }) : null;
  if (!url || probe.status !== 206) return { buys, stream: null, streamStatus: probe?.status ?? play?.status ?? null };
  const ttfbs = [];
  for (let i = 0; i < streamRequests; i++) ttfbs.push((await timed(url, { ...headers, Range: 'bytes=0-65535' })).ttfb);
  ttfbs.sort((a, b) => a - b);
  let bytes = 0;
  const s0 = performance.now();
  for (let i = 0; i < streamRequests; i++) bytes += (await timed(url, headers)).bytes;
  const streamSeconds = (performance.now() - s0) / 1000;
  return { buys, stream: { ttfbP50: percentile(ttfbs, 50), ttfbP99: percentile(ttfbs, 99), mbPerSecond: bytes / 1e6 / streamSeconds, partBytes: bytes / streamRequests } };
}
