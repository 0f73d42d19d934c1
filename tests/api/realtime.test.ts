import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { publishToUsers } from '../../src/server/realtime/shards';
import { parseEvent, type RealtimeEvent } from '../../src/shared/realtime';
import { registerMember } from './account-helpers';
import { closeSocketsAfterEach, OPS, req, uniqueIp, websocket } from './helpers';

// Sockets a test leaves open (it failed before closing them) are closed after it: they hold slots
// of the 3 x 2 the shard test below needs.
const track = closeSocketsAfterEach();

// Each socket from its own address: the per-address socket cap is tested in realtime-limits.test.ts.
async function connect(cookie = ''): Promise<{ ws: WebSocket; events: RealtimeEvent[]; next: (type: string) => Promise<RealtimeEvent> }> {
  const res = await websocket('/api/realtime', { Cookie: cookie, 'CF-Connecting-IP': uniqueIp() });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  track(ws);
  const events: RealtimeEvent[] = [];
  const waiters: { type: string; resolve: (e: RealtimeEvent) => void }[] = [];
  ws.addEventListener('message', (m) => {
    const e = parseEvent(m.data);
    if (!e) return;
    // A waiting next() takes the event; otherwise it stays for a later one.
    const w = waiters.findIndex((x) => x.type === e.type);
    if (w >= 0) waiters.splice(w, 1)[0].resolve(e);
    else events.push(e);
  });
  const next = (type: string) =>
    new Promise<RealtimeEvent>((resolve, reject) => {
      const seen = events.find((e) => e.type === type);
      if (seen) {
        events.splice(events.indexOf(seen), 1);
        return resolve(seen);
      }
      waiters.push({ type, resolve });
      setTimeout(() => reject(new Error(`no ${type} within 3 s`)), 3000);
    });
  return { ws, events, next };
}

const setStatus = (id: number | string, body: unknown, headers: Record<string, string> = OPS) =>
  req(`/api/ops/shows/${id}/status`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('live lobby', () => {
  it('greets, then pushes batched show:bulkupdate after an operator flips a show', async () => {
    const a = await connect();
    const b = await connect();
    expect((await a.next('hello')).type).toBe('hello');
    await b.next('hello');
    // Sent at once: the hub gathers changes for 250 ms from the first, and one after the other
    // they were more than 250 ms apart on a busy machine.
    const flips = await Promise.all([setStatus(7, { online: true }), setStatus(8, { online: false })]);
    expect(flips.map((r) => r.status)).toEqual([200, 200]);
    const seqs: number[] = [];
    for (const client of [a, b]) {
      const e = (await client.next('show:bulkupdate')) as Extract<RealtimeEvent, { type: 'show:bulkupdate' }>;
      // Both changes arrive together (batched), with a sequence number.
      expect(e.data).toEqual(expect.arrayContaining([{ id: 7, online: true }, { id: 8, online: false }]));
      expect(e.seq).toBeGreaterThan(0);
      seqs.push(e.seq);
    }
    expect(seqs[1]).toBe(seqs[0]);
    // The next batch carries the next number.
    expect((await setStatus(8, { online: true })).status).toBe(200);
    const following = (await a.next('show:bulkupdate')) as Extract<RealtimeEvent, { type: 'show:bulkupdate' }>;
    expect(following.seq).toBe(seqs[0] + 1);
    expect(following.data).toEqual([{ id: 8, online: true }]);
    const online = (await (await req('/api/shows/online')).json()) as { data: number[] };
    expect(online.data).toContain(7);
    expect(online.data).toContain(8);
    a.ws.close(1000);
    b.ws.close(1000);
  });

  it('never puts more sockets on a shard than allowed (3 shards x 2 here)', async () => {
    const clients = [];
    for (let i = 0; i < 6; i++) clients.push(await connect());
    const shards = await Promise.all(clients.map((c) => c.next('hello')));
    const perShard = new Map<number, number>();
    for (const h of shards) perShard.set((h as { shard: number }).shard, (perShard.get((h as { shard: number }).shard) ?? 0) + 1);
    expect([...perShard.values()].every((n) => n <= 2)).toBe(true);
    const full = await websocket('/api/realtime', { 'CF-Connecting-IP': uniqueIp() });
    expect(full.status).toBe(503);
    for (const c of clients) c.ws.close(1000);
  });

  it("carries member events only to that member's sockets: coins and logout", async () => {
    const member = await registerMember();
    const cookie = member.client.cookieHeader;
    const mine = await connect(cookie);
    const other = await connect();
    await mine.next('hello');
    await other.next('hello');
    const adjust = await req(`/api/ops/users/${member.id}/coins`, { method: 'POST', headers: OPS, body: JSON.stringify({ amount: 7, ref: `rt-${member.id}` }) });
    expect(adjust.status).toBe(200);
    expect(await mine.next('user:coins')).toEqual({ type: 'user:coins', coins: 7 });
    await member.client.post('/api/auth/logout');
    expect((await mine.next('user:logout')).type).toBe('user:logout');
    expect(other.events.filter((e) => e.type.startsWith('user:'))).toEqual([]);
    mine.ws.close(1000);
    other.ws.close(1000);
  });

  it("carries many members' events in one call (a room's minute tick), each only to its own member's sockets", async () => {
    const [a, b] = await Promise.all([registerMember(), registerMember()]);
    const sa = await connect(a.client.cookieHeader);
    const sb = await connect(b.client.cookieHeader);
    const other = await connect();
    for (const s of [sa, sb, other]) await s.next('hello');
    await publishToUsers(env, [
      { userId: a.id, event: { type: 'user:coins', coins: 11 } },
      { userId: b.id, event: { type: 'user:coins', coins: 22 } },
      { userId: a.id, event: { type: 'user:coins', coins: 10 } },
    ]);
    expect(await sa.next('user:coins')).toEqual({ type: 'user:coins', coins: 11 });
    expect(await sa.next('user:coins')).toEqual({ type: 'user:coins', coins: 10 });
    expect(await sb.next('user:coins')).toEqual({ type: 'user:coins', coins: 22 });
    expect(sb.events.filter((e) => e.type === 'user:coins')).toEqual([]);
    expect(other.events.filter((e) => e.type.startsWith('user:'))).toEqual([]);
    for (const s of [sa, sb, other]) s.ws.close(1000);
  });

  it('refuses operator calls without the token, bad ids and bad bodies', async () => {
    expect((await setStatus(7, { online: true }, { 'Content-Type': 'application/json' })).status).toBe(401);
    expect((await setStatus(7, { online: true }, { ...OPS, Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await setStatus(99999, { online: true })).status).toBe(404);
    expect((await setStatus('abc', { online: true })).status).toBe(422);
    expect((await setStatus(7, { online: 'yes' })).status).toBe(422);
    expect((await req('/api/realtime')).status).toBe(426);
  });
});
