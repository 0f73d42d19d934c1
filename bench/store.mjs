// Store: buys per second on one account (every tenth buy sent twice at once), then checked: each
// video bought once, the balance fell by exactly the sum of the prices. Then the paid stream
// through the worker: time to the first byte of a 206 answer (64 KB range) and the throughput of
// whole-file 206 answers (`bytes=0-`), both read from R2 by the worker after the purchase check.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Http, percentile } from './lib.mjs';

const DEMO = { username: 'demo', password: 'demo-pass-2026' };

async function must(p, what) {
  const r = await p;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`);
  return r.body;
}

/** A GET with the member's cookies: ms to the response headers, ms to the end, status, bytes. */
function timedGet(url, headers) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const t0 = performance.now();
    const req = http.get({ host: u.hostname, port: u.port, path: u.pathname, headers, agent: false }, (res) => {
      const ttfb = performance.now() - t0;
      let bytes = 0;
      res.on('data', (d) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode, ttfb, total: performance.now() - t0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Videos with a price the member does not own yet, newest first, up to `count`. */
async function unownedVideos(member, count) {
  const found = [];
  for (let page = 1; found.length < count; page++) {
    const list = await must(member.call('GET', `/api/search/videos?limit=48&page=${page}`), 'video list');
    for (const v of list.data) if (v.price > 0 && !v.owned && found.length < count) found.push(v);
    if (page >= list.last_page) break;
  }
  return found;
}

export async function benchStore(base, { buys = 150, concurrency = 16, streamSeconds = 5, opsToken }) {
  const member = new Http(base);
  await must(member.call('POST', '/api/auth/login', DEMO), 'login');
  const me = await must(member.call('GET', '/api/auth/user'), 'user');
  await must(new Http(base).call('POST', `/api/ops/users/${me.user.id}/coins`, { amount: 100_000, ref: `bench-store-${Date.now()}` }, { Authorization: `Bearer ${opsToken}` }), 'coins');
  const before = (await must(member.call('GET', '/api/auth/user'), 'user')).user.coins;
  const archiveBefore = (await must(member.call('GET', '/api/archive/videos'), 'archive')).video_count;

  const videos = await unownedVideos(member, buys);
  if (videos.length < buys) throw new Error(`only ${videos.length} videos to buy`);
  const jobs = videos.flatMap((v, i) => (i % 10 === 0 ? [v, v] : [v]));
  let bought = 0;
  let already = 0;
  let errors = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const v = jobs[next++];
        const r = await member.call('POST', `/api/videos/buy/${v.ccid}/1`, { use_voucher: 0 });
        if (r.status !== 200) errors++;
        else if (r.body.already) already++;
        else bought++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const after = (await must(member.call('GET', '/api/auth/user'), 'user')).user.coins;
  const archiveAfter = (await must(member.call('GET', '/api/archive/videos'), 'archive')).video_count;
  const spent = videos.reduce((sum, v) => sum + v.price, 0);
  const lostOrDoubled = Math.abs(before - after - spent) + Math.abs(bought - videos.length) + Math.abs(archiveAfter - archiveBefore - videos.length);

  // The stream: a bought video's first part, as the player asks for it.
  const media = `${base}/media/videos/${videos[0].id}/1`;
  const headers = { ...member.headers(), Range: 'bytes=0-65535' };
  const first = await timedGet(media, headers);
  if (first.status !== 206) throw new Error(`stream: ${first.status}`);
  const ttfbs = [];
  for (let i = 0; i < 200; i++) ttfbs.push((await timedGet(media, headers)).ttfb);
  ttfbs.sort((a, b) => a - b);
  let bytes = 0;
  let streams = 0;
  const whole = { ...member.headers(), Range: 'bytes=0-' };
  const end = performance.now() + streamSeconds * 1000;
  const s0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < end) {
        const r = await timedGet(media, whole);
        if (r.status !== 206) throw new Error(`stream: ${r.status}`);
        bytes += r.bytes;
        streams++;
      }
    }),
  );
  const streamSecondsTaken = (performance.now() - s0) / 1000;
  return {
    buys: videos.length,
    requests: jobs.length,
    buysPerSecond: bought / seconds,
    bought,
    already,
    errors,
    lostOrDoubled,
    ttfbP50: percentile(ttfbs, 50),
    ttfbP99: percentile(ttfbs, 99),
    mbPerSecond: bytes / 1e6 / streamSecondsTaken,
    streams,
    fileBytes: bytes / Math.max(1, streams),
  };
}
