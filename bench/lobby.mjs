// Live lobby fan-out: N sockets on /api/realtime, operator flips, time from the hub publishing a
// show:bulkupdate to each socket receiving it (and, per update, to the last socket receiving it);
// then a forced reconnect of every client with flips during the outage, checked for lost updates.
//
// The clients do not offer permessage-deflate unless asked (deflate: true): the worker declines it
// (compatibility flag no_web_socket_compression), but the local dev server's entry worker still
// accepts an offer, which would measure a per-socket compression production does not do.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { percentile, sleep } from './lib.mjs';


function request(baseUrl, method, path, { body, headers = {} } = {}) {
  const u = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A client that behaves like the page: applies bulk updates, refetches everything after a reconnect. */
class Client {
  constructor(baseUrl, deflate, wsBase = baseUrl) {
    this.baseUrl = baseUrl;
    this.wsBase = wsBase;
    this.deflate = deflate;
    this.online = new Map();
    this.latency = new Map(); // bulk update seq -> ms from publish to receive
    this.shard = null;
  }
  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${this.wsBase.replace(/^http/, 'ws')}/api/realtime`, { perMessageDeflate: this.deflate });
      this.ws = ws;
      const timer = setTimeout(() => reject(new Error('no hello within 20 s')), 20_000);
      ws.on('message', (data) => {
        const now = Date.now();
        const e = JSON.parse(String(data));
        if (e.type === 'hello') {
          this.shard = e.shard;
          clearTimeout(timer);
          resolve();
        } else if (e.type === 'show:bulkupdate') {
          this.latency.set(e.seq, now - e.ts);
          for (const s of e.data) this.online.set(s.id, s.online);
        }
      });
      ws.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }
  async refetch() {
    const res = await request(this.baseUrl, 'GET', '/api/shows/online');
    const ids = new Set(JSON.parse(res.text).data);
    for (const id of this.online.keys()) this.online.set(id, ids.has(id));
    for (const id of ids) this.online.set(id, true);
  }
  close() {
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }
}

export async function inBatches(items, size, fn) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/** `wsBase`: where the sockets connect (bench/lib.mjs directUrl: past wrangler's proxy, for thousands of sockets). */
export async function benchLobby(baseUrl, { sockets = 1000, flips = 20, opsToken, deflate = false, wsBase = baseUrl }) {
  const auth = { Authorization: `Bearer ${opsToken}` };
  const flip = (id, online) => request(baseUrl, 'POST', `/api/ops/shows/${id}/status`, { body: { online }, headers: auth });
  const clients = Array.from({ length: sockets }, () => new Client(baseUrl, deflate, wsBase));
  const t0 = performance.now();
  await inBatches(clients, 50, (c) => c.connect());
  const connectSeconds = (performance.now() - t0) / 1000;
  const shards = new Map();
  for (const c of clients) shards.set(c.shard, (shards.get(c.shard) ?? 0) + 1);

  // One unmeasured flip first: the first send after 1,000 connects also pays for warming up.
  await flip(199, true);
  await sleep(1000);
  for (const c of clients) c.latency.clear();

  // Fan-out: flips spaced beyond the 250 ms batch window, so each is its own bulk update
  // (shows 200-249, online on the first pass, offline on the second, and so on).
  const firstIds = Array.from({ length: Math.min(flips, 50) }, (_, i) => 200 + i);
  for (let i = 0; i < flips; i++) {
    const r = await flip(firstIds[i % 50], Math.floor(i / 50) % 2 === 0);
    if (r.status !== 200) throw new Error(`operator call failed: ${r.status} ${r.text}`);
    await sleep(400);
  }
  await sleep(1000);
  const all = clients.flatMap((c) => [...c.latency.values()]).sort((a, b) => a - b);
  const expected = sockets * flips;
  // Publish to last receive: per bulk update, the time until the last socket had it.
  const lastBySeq = new Map();
  for (const c of clients) for (const [seq, ms] of c.latency) lastBySeq.set(seq, Math.max(lastBySeq.get(seq) ?? 0, ms));
  const last = [...lastBySeq.values()].sort((a, b) => a - b);

  // Forced reconnect of every client, with flips while they are away.
  await Promise.all(clients.map((c) => c.close()));
  const outageIds = [10, 11, 12, 13, 14];
  for (const id of outageIds) await flip(id, false);
  await inBatches(clients, 50, async (c) => {
    await c.connect();
    await c.refetch();
  });
  await flip(15, true); // one more after everybody is back
  const truth = new Set(JSON.parse((await request(baseUrl, 'GET', '/api/shows/online')).text).data);
  const wrong = () => {
    let n = 0;
    for (const c of clients) for (const id of [...firstIds, ...outageIds, 15]) if ((c.online.get(id) ?? false) !== truth.has(id)) n++;
    return n;
  };
  // Delivery may lag under load; a lost update is one that never arrives (5 s here).
  const deadline = Date.now() + 5_000;
  while (wrong() > 0 && Date.now() < deadline) await sleep(100);
  const lost = wrong();
  await Promise.all(clients.map((c) => c.close()));
  return {
    sockets,
    shards: Object.fromEntries([...shards].sort((a, b) => a[0] - b[0])),
    connectSeconds,
    deliveries: all.length,
    expected,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    max: all.at(-1) ?? NaN,
    lastP50: percentile(last, 50),
    lastP99: percentile(last, 99),
    lastMax: last.at(-1) ?? NaN,
    lost,
  };
}
