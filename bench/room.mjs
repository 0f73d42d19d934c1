// Live room: 500 viewers (guest free-chat sessions) in one show's room, 10 chat lines per second
// from 20 of them; time from send to the LAST of the 500 viewers receiving each line, and lost
// deliveries. The floor: a bare worker whose one Durable Object sends the same lines to the same
// 500 sockets (no app code), measured in the same run. Then billing: 200 concurrent private
// sessions (one member, 200 shows, the local simulator accepts them) billed by room alarms with a
// short minute; afterwards the ledger and the session rows are checked for double and missed
// minutes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import WebSocket from 'ws';
import { wrangler } from '../scripts/lib.mjs';
import { Http, percentile, request, sleep } from './lib.mjs';
import { inBatches } from './lobby.mjs';

const PERFORMER_PASSWORD = 'studio-demo-1';
// The page's token rules (room-socket.ts; tokens live 300 s): renewed after 210 s, reused while 20 s are left.
const TOKEN_RENEW_AFTER_MS = 210_000;
const TOKEN_REUSE_MS = 280_000;
const ROOM_SHOW = 1;


/** A room socket, resolved at the room's welcome; every event (also the welcome) goes to `onEvent` with its arrival time. */
export function socket(url, onEvent, name = 'room socket') {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const timer = setTimeout(() => reject(new Error(`${name}: no welcome within 20 s`)), 20_000);
    ws.on('message', (data) => {
      const now = Date.now();
      const text = String(data);
      if (text === 'pong') return;
      // One event, or several in an array (a shard that fell behind, shard.ts deliver).
      const v = JSON.parse(text);
      for (const e of Array.isArray(v) ? v : [v]) {
        if (e.t === 'welcome') {
          clearTimeout(timer);
          resolve(ws);
        }
        onEvent(e, now);
      }
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** A setup call; a timeout (the machine busy) is retried twice. */
async function must(p, what, retry = null) {
  let r;
  for (let attempt = 0; ; attempt++) {
    try {
      r = await (attempt === 0 ? p : retry());
      break;
    } catch (e) {
      if (!retry || attempt >= 2) throw e;
    }
  }
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function showUniversalId(base, id) {
  return must(new Http(base).call('GET', `/api/shows/${id}`), `show ${id}`).then((b) => b.universalId ?? b.data?.universalId ?? b.show?.universalId);
}

/** Lines from `senders` sockets at `perSecond` in total; latency per line = send -> last viewer receive. */
async function fanOut(sockets, senders, perSecond, count, makeMessage) {
  const last = new Map();
  const got = new Map();
  // A line that arrives after a later one of the same sender is out of order.
  let disorder = 0;
  for (const s of sockets) {
    const latest = new Map();
    s.onLine = (seq, ts, now, from) => {
      last.set(seq, Math.max(last.get(seq) ?? 0, now - ts));
      got.set(seq, (got.get(seq) ?? 0) + 1);
      if (seq < (latest.get(from) ?? 0)) disorder++;
      else latest.set(from, seq);
    };
  }
  // One unmeasured line warms up.
  senders[0].ws.send(makeMessage(0, Date.now()));
  await sleep(1000);
  last.clear();
  got.clear();
  for (let seq = 1; seq <= count; seq++) {
    senders[seq % senders.length].ws.send(makeMessage(seq, Date.now()));
    await sleep(1000 / perSecond);
  }
  // Lost is what never arrives: a machine past its capacity delivers late, so wait while deliveries
  // still come in (at 5,000 viewers here the backlog is tens of seconds, in bursts).
  let delivered = 0;
  for (let before = -1, still = 0; still < 15_000; ) {
    await sleep(500);
    delivered = 0;
    for (let seq = 1; seq <= count; seq++) delivered += got.get(seq) ?? 0;
    if (delivered === count * sockets.length) break;
    still = delivered === before ? still + 500 : 0;
    before = delivered;
  }
  const sorted = [...last.values()].sort((a, b) => a - b);
  // A line nobody received (the sender's own socket gets its line too) never left the sender's
  // limits: frames a saturated server takes in late arrive bunched, over the 5-line burst
  // (CHAT_RATE_BURST), and the room refuses them as it would a flood (the sender is told). What
  // went out to some viewers and not to others is lost.
  const refused = Array.from({ length: count }, (_, i) => got.get(i + 1) ?? 0).filter((n) => n === 0).length;
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, lost: (count - refused) * sockets.length - delivered, refused, disorder };
}

const parseBench = (text) => {
  const m = /^bench (\d+) (\d+)$/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
};

/**
 * `viewers` guests with a free session each in one show's room (with the performer's studio), then
 * `lines` lines at `perSecond` from 20 of them spread over the room's shards. If the machine stops
 * accepting sessions or sockets before `viewers`, the run goes on with those connected and says why.
 * `storm`: that many viewers then drop their sockets and come back all at once (a new socket each,
 * with the page's token rules, without its jitter): the time until the last is welcomed again.
 */
export async function benchRoomFanout(base, { viewers = 500, perSecond = 10, lines = 100, storm = 0, wsBase = base } = {}) {
  const ws = (realm) => `${wsBase.replace(/^http/, 'ws')}${new URL(realm).pathname}`;
  const performer = new Http(base);
  const show = ROOM_SHOW;
  const slug = (await must(new Http(base).call('GET', `/api/shows/${show}`), 'show')).slugName;
  await must(performer.call('POST', '/api/auth/login', { username: slug, password: PERFORMER_PASSWORD }), 'performer login');
  await must(performer.call('POST', '/api/studio/status', { online: true, paused: false, open: { free: true, private: true, exclusive: true, voyeur: true } }), 'online');
  const studioToken = await must(performer.call('POST', '/api/studio/connect'), 'connect');
  const studio = await socket(`${ws(studioToken.realm)}?login=${studioToken.login}&password=${studioToken.password}`, () => {});
  const universalId = await showUniversalId(base, show);
  const clients = [];
  /** Errors the room told the viewers (a refused line: chat.rate_limited, once per sender and 10 s). */
  const told = new Map();
  // As the page does (room-socket.ts): the token is renewed over the socket before it runs out.
  const join = async (c, a) => {
    c.a = a;
    c.tokenAt ??= Date.now();
    c.ws = await socket(`${ws(a.realm)}?login=${a.login}&password=${encodeURIComponent(a.password)}`, (e, now) => {
      if (e.t === 'token') {
        c.a = { ...c.a, password: e.password };
        c.tokenAt = now;
      }
      if (e.t === 'error') told.set(e.code, (told.get(e.code) ?? 0) + 1);
      if (e.t !== 'line') return;
      const p = parseBench(e.line.text);
      if (p) c.onLine(p[0], p[1], now, e.line.from);
    });
  };
  let stopped = null;
  const t0 = performance.now();
  await inBatches(Array.from({ length: viewers }, (_, i) => i), 20, async () => {
    if (stopped) return;
    try {
      const http = new Http(base);
      const start = () => http.call('POST', `/api/chatsession/${universalId}`, { type: 'free' });
      const a = await must(start(), 'free session', start);
      const c = { http, sessionId: a.sessionId, onLine: () => {} };
      await join(c, a);
      clients.push(c);
    } catch (e) {
      stopped ??= `${clients.length} connected, then: ${e.message}`;
    }
  });
  const connectSeconds = (performance.now() - t0) / 1000;
  const renewals = setInterval(() => {
    for (const c of clients) if (Date.now() - c.tokenAt > TOKEN_RENEW_AFTER_MS && c.ws.readyState === WebSocket.OPEN) c.ws.send(JSON.stringify({ t: 'renew' }));
  }, 5_000);
  const r = await fanOut(clients, spread(clients, 20), perSecond, lines, (seq, ts) => JSON.stringify({ t: 'say', text: `bench ${seq} ${ts}` }));
  let reconnect = null;
  if (storm > 0) reconnect = await stormBack(clients.slice(0, storm), join);
  clearInterval(renewals);
  for (const c of clients) c.ws.close(1000);
  studio.close(1000);
  // A busy machine may not answer this within its timeout: the figures above are kept all the same.
  const offline = () => performer.call('POST', '/api/studio/status', { online: false });
  await must(offline(), 'offline', offline).catch((e) => console.log(`  (show left online: ${e.message})`));
  return { viewers: clients.length, asked: viewers, stopped, connectSeconds, lines, ...r, told: Object.fromEntries(told), reconnect };
}

/**
 * Every client drops its socket; then all at once join again as the page does: with the token it
 * holds while that is fresh (renewed over the socket), else with a fresh one from the API.
 */
async function stormBack(clients, join) {
  for (const c of clients) c.ws.close(1000);
  await sleep(500);
  let errors = 0;
  const t0 = performance.now();
  const back = [];
  await Promise.all(
    clients.map(async (c) => {
      try {
        if (Date.now() - c.tokenAt >= TOKEN_REUSE_MS) {
          c.a = await must(c.http.call('POST', `/api/chatsession/token/${c.sessionId}`), 'token');
          c.tokenAt = Date.now();
        }
        await join(c, c.a);
        back.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }),
  );
  back.sort((a, b) => a - b);
  return { viewers: clients.length, back: back.length, errors, p50_ms: percentile(back, 50), last_ms: back.at(-1) ?? NaN };
}

// The floor has the room's shape without its code: viewers' sockets on shards of `shardSize`, a
// line goes from the sender's shard to one hub object, which hands it to every shard in one call
// each, and each shard sends it to its sockets.
const FLOOR_WORKER = `
import { DurableObject } from 'cloudflare:workers';
let seq = 0;
export class Shard extends DurableObject {
  async fetch() {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].send(JSON.stringify({ t: 'welcome' }));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }
  deliver(messages) {
    for (const m of messages) for (const s of this.ctx.getWebSockets()) s.send(m);
  }
  async webSocketMessage(ws, message) {
    this.hub ??= this.env.HUB.get(this.env.HUB.idFromName('hub'));
    await this.hub.say(JSON.parse(message).text);
  }
  webSocketClose(ws, code) {
    try { ws.close(code === 1005 ? 1000 : code); } catch {}
  }
}
export class Hub extends DurableObject {
  say(text) {
    // The same line the room sends (same fields, same size), so the ratio compares the work, not the bytes.
    const line = JSON.stringify({ t: 'line', line: { id: Date.now().toString(36) + '-' + ++seq, from: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', nick: 'guest1234', role: 'guest', text, ts: Date.now() } });
    this.shards ??= Array.from({ length: Number(this.env.SHARDS) }, (_, k) => this.env.SHARD.get(this.env.SHARD.idFromName('s' + k)));
    for (const s of this.shards) s.deliver([line]);
  }
}
export default {
  fetch(request, env) {
    const k = Number(new URL(request.url).searchParams.get('k'));
    return env.SHARD.get(env.SHARD.idFromName('s' + k)).fetch(request);
  },
};`;

/** An assets folder with one file (the floor serves none; the router in front of it is what counts). */
function floorAssets() {
  const dir = mkdtempSync(join(tmpdir(), 'room-floor-assets-'));
  writeFileSync(join(dir, 'robots.txt'), '');
  return dir;
}

export async function benchRoomFloor({ viewers = 500, perSecond = 10, lines = 100, shardSize = 1000 } = {}) {
  const shards = Math.ceil(viewers / shardSize);
  const assets = floorAssets();
  const mf = new Miniflare({
    modules: true,
    script: FLOOR_WORKER,
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['no_web_socket_compression'],
    durableObjects: { SHARD: 'Shard', HUB: 'Hub' },
    bindings: { SHARDS: String(shards) },
    // The product's local shape (wrangler.toml [assets] with run_worker_first): requests pass the assets router first.
    assets: { directory: assets, binding: 'ASSETS', routerConfig: { invoke_user_worker_ahead_of_assets: true, has_user_worker: true } },
  });
  try {
    const base = (await mf.ready).toString().replace(/\/$/, '').replace(/^http/, 'ws');
    const clients = [];
    await inBatches(Array.from({ length: viewers }, (_, i) => i), 50, async (i) => {
      const c = { onLine: () => {} };
      c.ws = await socket(`${base}/ws?k=${Math.floor(i / shardSize)}`, (e, now) => {
        const p = e.t === 'line' ? parseBench(e.line.text) : null;
        if (p) c.onLine(p[0], p[1], now, e.line.from);
      });
      clients.push(c);
    });
    const r = await fanOut(clients, spread(clients, 20), perSecond, lines, (seq, ts) => JSON.stringify({ t: 'say', text: `bench ${seq} ${ts}` }));
    for (const c of clients) c.ws.close(1000);
    return { ...r, shards };
  } finally {
    await mf.dispose();
    rmSync(assets, { recursive: true, force: true });
  }
}

/** `n` senders spread over the list (so over the shards). */
const spread = (list, n) => Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * list.length) / Math.min(n, list.length))]);

/**
 * 200 private sessions at once, one member: the simulator accepts them (SIMULATOR=1 on the bench
 * server), the rooms' alarms charge every `minuteMs`; after `seconds` all are ended and each
 * session's charged minutes are compared with the minutes that started between its start and end.
 */
export async function benchRoomBilling(base, { sessions = 200, seconds = 12, minuteMs, opsToken, persistTo }) {
  const member = new Http(base);
  await must(member.call('POST', '/api/auth/login', { username: 'demo', password: 'demo-pass-2026' }), 'member login');
  const me = await must(member.call('GET', '/api/auth/user'), 'user');
  if (!me.user.nicknames.data.length) await must(member.call('POST', '/api/user/nickname/add', { nickname: 'BenchNick' }), 'nickname');
  await must(new Http(base).call('POST', `/api/ops/users/${me.user.id}/coins`, { amount: 1_000_000, ref: `bench-room-${Date.now()}` }, { Authorization: `Bearer ${opsToken}` }), 'coins');
  const ids = Array.from({ length: sessions }, (_, i) => 2 + i);
  await inBatches(ids, 25, (id) => must(new Http(base).call('POST', `/api/ops/shows/${id}/status`, { online: true }, { Authorization: `Bearer ${opsToken}` }), `online ${id}`));
  const universal = new Map();
  for (const id of ids) universal.set(id, await showUniversalId(base, id));
  const started = [];
  await inBatches(ids, 10, async (id) => {
    const universalId = universal.get(id);
    const a = await must(member.call('POST', `/api/chatsession/${universalId}`, { type: 'private' }), `private ${id}`);
    started.push(a);
  });
  await sleep(seconds * 1000);
  await inBatches(started, 5, (a) => must(member.call('POST', `/api/chatsession/end/${a.sessionId}`), 'end'));
  await sleep(500);
  const sql = `SELECT c.id, c.started_at, c.ended_at, c.minutes, c.coins, c.price,
      (SELECT COUNT(DISTINCT l.ref) FROM ledger l WHERE l.ref LIKE 'chat:' || c.id || ':%' AND l.ref NOT LIKE '%:house') AS charged,
      (SELECT COUNT(*) - COUNT(DISTINCT l.ref) FROM ledger l WHERE l.ref LIKE 'chat:' || c.id || ':%') AS repeated,
      (SELECT -SUM(l.amount) FROM ledger l WHERE l.ref LIKE 'chat:' || c.id || ':%') AS paid
    FROM chat_sessions c WHERE c.id IN (${started.map((a) => `'${a.sessionId}'`).join(',')})`;
  const out = await wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--json', '--command', sql], { capture: true });
  const rows = JSON.parse(out)[0].results;
  // An alarm may run a little after a minute starts: a minute that started within this slack
  // before the end is not counted as missed.
  const slack = 250;
  let double = 0;
  let missed = 0;
  let minutes = 0;
  let notStarted = 0;
  for (const r of rows) {
    if (r.started_at === null) {
      notStarted++;
      continue;
    }
    const due = Math.floor((r.ended_at - r.started_at) / minuteMs) + 1;
    const dueSure = Math.floor(Math.max(0, r.ended_at - r.started_at - slack) / minuteMs) + 1;
    minutes += r.charged;
    double += Math.max(0, r.charged - due) + r.repeated + (r.coins !== r.charged * r.price || (r.paid ?? 0) !== r.coins ? 1 : 0);
    missed += Math.max(0, dueSure - r.charged);
  }
  return { sessions: rows.length, notStarted, minutes, double, missed };
}
