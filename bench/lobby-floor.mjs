// The floor under the lobby fan-out on this machine: a bare worker whose Durable Objects (the
// same hibernation API, the same sharding) send one small string to every socket, measured like
// bench/lobby.mjs (publish -> last socket, per send). No app code, no hub, no wrangler: what is
// left is workerd and the receiving client.
import { Miniflare } from 'miniflare';
import WebSocket from 'ws';
import { percentile } from './lib.mjs';
import { inBatches } from './lobby.mjs';

const WORKER = `
import { DurableObject } from 'cloudflare:workers';
export class Room extends DurableObject {
  async fetch() {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }
  relay(message) {
    for (const ws of this.ctx.getWebSockets()) ws.send(message);
  }
  webSocketClose(ws, code) {
    try { ws.close(code === 1005 ? 1000 : code); } catch {}
  }
}
const room = (env, i) => env.ROOM.get(env.ROOM.idFromName('shard-' + i));
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const shards = Number(url.searchParams.get('shards'));
    if (url.pathname === '/ws') return room(env, Number(url.searchParams.get('i')) % shards).fetch(request);
    const message = JSON.stringify({ type: 'show:bulkupdate', seq: Number(url.searchParams.get('seq')), ts: Date.now(), data: [{ id: 1, online: true }] });
    await Promise.all(Array.from({ length: shards }, (_, i) => room(env, i).relay(message)));
    return new Response(null, { status: 204 });
  },
};`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function benchLobbyFloor({ sockets = 1000, shards = 8, sends = 40 }) {
  const mf = new Miniflare({
    modules: true,
    script: WORKER,
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['no_web_socket_compression'],
    durableObjects: { ROOM: 'Room' },
  });
  try {
    const base = (await mf.ready).toString().replace(/\/$/, '');
    const last = new Map(); // seq -> ms until the last socket had it
    const open = [];
    await inBatches(Array.from({ length: sockets }, (_, i) => i), 50, (i) => {
      const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?i=${i}&shards=${shards}`, { perMessageDeflate: false });
      ws.on('message', (data) => {
        const now = Date.now();
        const e = JSON.parse(String(data));
        last.set(e.seq, Math.max(last.get(e.seq) ?? 0, now - e.ts));
      });
      open.push(ws);
      return new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
    });
    // seq 0 warms up, like the lobby bench's unmeasured first flip.
    for (let seq = 0; seq <= sends; seq++) {
      await fetch(`${base}/send?shards=${shards}&seq=${seq}`);
      await sleep(seq === 0 ? 1000 : 400);
    }
    last.delete(0);
    const sorted = [...last.values()].sort((a, b) => a - b);
    for (const ws of open) ws.close(1000);
    return { sockets, shards, sends: sorted.length, lastP50: percentile(sorted, 50), lastP99: percentile(sorted, 99), lastMax: sorted.at(-1) ?? NaN };
  } finally {
    await mf.dispose();
  }
}
