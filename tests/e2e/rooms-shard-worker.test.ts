import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { baseUrl } from './browser';
import { homeShows, showsByIds } from './rooms-helpers';

// The viewers' sockets live in a worker of their own (wrangler.shard.toml), served beside the
// application as in production. Both must hold the same secret: a token the shard renews over the
// socket is the one the page reconnects with, and the application checks it.

/** A guest's free session on a live show, through the API as the page makes it. */
async function guestSession(universalId: string): Promise<{ realm: string; login: string; password: string }> {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf-cookie`);
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const xsrf = decodeURIComponent(cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '');
  const res = await fetch(`${baseUrl()}/api/chatsession/${universalId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookies.join('; '), 'X-XSRF-TOKEN': xsrf },
    body: JSON.stringify({ type: 'free' }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Opens the room's socket; resolves with it and the events once `until` has been seen. */
function join(realm: string, login: string, password: string, until: (e: { t: string }) => boolean, onOpen?: (ws: WebSocket) => void) {
  return new Promise<{ ws: WebSocket; events: { t: string; password?: string }[] }>((resolve, reject) => {
    const ws = new WebSocket(`${realm.replace(/^https?:\/\/[^/]+/, baseUrl().replace(/^http/, 'ws'))}?login=${login}&password=${encodeURIComponent(password)}`);
    const events: { t: string }[] = [];
    const timer = setTimeout(() => reject(new Error(`no ${until.toString()} within 15 s: ${JSON.stringify(events)}`)), 15_000);
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.on('message', (data) => {
      const v = JSON.parse(String(data));
      for (const e of Array.isArray(v) ? v : [v]) {
        events.push(e);
        if (e.t === 'welcome') onOpen?.(ws);
        if (until(e)) {
          clearTimeout(timer);
          resolve({ ws, events });
        }
      }
    });
  });
}

describe('rooms: the shard worker', () => {
  it('renews a token the application accepts: the guest reconnects with it', async () => {
    // A show no suite brings into a studio: those that do pick from home's first list page or from the
    // ranges above 100, and a studio closed there takes its show offline after the grace (this test once
    // met show 240 going offline under it).
    const studios = new Set((await homeShows(() => true)).map((s) => s.id));
    const [show] = await showsByIds(4, 100, (s) => s.online && s.freemode && !studios.has(s.id));
    expect(show, 'a live show with free chat').toBeDefined();
    const a = await guestSession(show!.universalId);
    const first = await join(a.realm, a.login, a.password, (e) => e.t === 'token', (ws) => {
      // A second later: a token of its own (the claims carry whole seconds).
      setTimeout(() => ws.send(JSON.stringify({ t: 'renew' })), 1_100);
    });
    const renewed = first.events.find((e) => e.t === 'token')!.password!;
    expect(renewed).not.toBe(a.password);
    first.ws.close(1000);
    const again = await join(a.realm, a.login, renewed, (e) => e.t === 'welcome');
    again.ws.close(1000);
    // A token signed with another secret is refused (the check above is not vacuous).
    const forged = renewed.slice(0, renewed.lastIndexOf('.') + 1) + 'A'.repeat(43);
    await expect(join(a.realm, a.login, forged, (e) => e.t === 'welcome')).rejects.toThrow(/refused: 401/);
  });
});
