import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { Client, uniqueIp, websocket } from './helpers';

// /api/realtime: only our own pages may open a socket (Origin), and one session or one client
// address holds a bounded number of sockets, also under a burst of parallel upgrades. The test
// bindings set the caps to 3 per session and 5 per address (vitest.workers.config.ts), below the
// room of the lobby shards (3 x 2), so the caps are what refuses.
const PER_SESSION = 3;
const PER_ADDRESS = 5;

function upgrade(headers: Record<string, string>): Promise<Response> {
  return websocket('/api/realtime', headers);
}

function accept(res: Response): WebSocket {
  const ws = res.webSocket!;
  ws.accept();
  return ws;
}

async function openSlots(): Promise<number> {
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM realtime_sockets WHERE expires_at > unixepoch()').first<{ n: number }>();
  return row?.n ?? 0;
}

/** Closes the sockets and waits until their shards have released the slots. */
async function closeAll(sockets: WebSocket[]): Promise<void> {
  for (const ws of sockets) ws.close(1000);
  for (let i = 0; i < 100 && (await openSlots()) > 0; i++) await new Promise((r) => setTimeout(r, 30));
  expect(await openSlots()).toBe(0);
}

async function visitorCookie(): Promise<string> {
  const client = new Client();
  expect((await client.get('/')).status).toBe(200);
  expect(client.cookie('lc_sid')).toBeTruthy();
  return client.cookieHeader;
}

describe('realtime socket limits', { timeout: 60_000 }, () => {
  it("refuses another site's Origin with 403 and accepts the own one", async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', 'http://localhost:8080', 'https://localhost']) {
      const res = await upgrade({ Origin: origin, 'CF-Connecting-IP': uniqueIp() });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ message: 'origin_forbidden' });
    }
    expect(await openSlots()).toBe(0);
    const own = await upgrade({ Origin: 'http://localhost', 'CF-Connecting-IP': uniqueIp() });
    expect(own.status).toBe(101);
    await closeAll([accept(own)]);
  });

  it('a burst of 100 parallel upgrades from one session gets exactly the cap', async () => {
    const cookie = await visitorCookie();
    const results = await Promise.all(Array.from({ length: 100 }, () => upgrade({ Cookie: cookie, Origin: 'http://localhost', 'CF-Connecting-IP': uniqueIp() })));
    const open = results.filter((r) => r.status === 101);
    expect(open.length).toBe(PER_SESSION);
    expect(results.filter((r) => r.status === 429).length).toBe(100 - PER_SESSION);
    const refused = results.find((r) => r.status === 429)!;
    expect(await refused.json()).toEqual({ message: 'too_many_sockets' });
    expect(refused.headers.get('Retry-After')).toBe('30');
    // Another session is not affected.
    const other = await upgrade({ Cookie: await visitorCookie(), 'CF-Connecting-IP': uniqueIp() });
    expect(other.status).toBe(101);
    await closeAll([...open.map(accept), accept(other)]);
  });

  it('a burst of 100 parallel upgrades from one address (no session) gets exactly the cap', async () => {
    const ip = uniqueIp();
    const results = await Promise.all(Array.from({ length: 100 }, () => upgrade({ 'CF-Connecting-IP': ip })));
    const open = results.filter((r) => r.status === 101);
    expect(open.length).toBe(PER_ADDRESS);
    expect(results.filter((r) => r.status === 429).length).toBe(100 - PER_ADDRESS);
    await closeAll(open.map(accept));
  });

  it('a closed socket frees its slot; a slot of a socket that died without closing expires', async () => {
    const cookie = await visitorCookie();
    const headers = () => ({ Cookie: cookie, 'CF-Connecting-IP': uniqueIp() });
    const sockets: WebSocket[] = [];
    for (let i = 0; i < PER_SESSION; i++) {
      const res = await upgrade(headers());
      expect(res.status).toBe(101);
      sockets.push(accept(res));
    }
    expect((await upgrade(headers())).status).toBe(429);
    sockets.shift()!.close(1000);
    let again: Response | null = null;
    for (let i = 0; i < 100; i++) {
      const res = await upgrade(headers());
      if (res.status === 101) {
        again = res;
        break;
      }
      expect(res.status).toBe(429);
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(again?.status).toBe(101);
    sockets.push(accept(again!));
    await closeAll(sockets);

    // Slots whose sockets vanished without a close event (a shard evicted) hold nothing once expired.
    const sid = /lc_sid=([^;.]+)/.exec(cookie)?.[1];
    expect(sid).toBeTruthy();
    const past = Math.floor(Date.now() / 1000) - 1;
    await env.DB.batch(
      Array.from({ length: PER_SESSION }, (_, i) =>
        env.DB.prepare('INSERT INTO realtime_sockets (id, session_id, address, expires_at) VALUES (?, ?, ?, ?)').bind(`stale-${i}-${sid}`, sid, '10.0.0.1', past),
      ),
    );
    const fresh = await upgrade(headers());
    expect(fresh.status).toBe(101);
    await closeAll([accept(fresh)]);
  });
});
