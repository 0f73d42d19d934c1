import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUSH_MAX_PER_MEMBER, type PushMessage, type PushSubscriptionAnswer } from '../../src/shared/push';
import { b64uDecode, p256Jwk } from '../../src/server/lib/web-push/encrypt';
import { registerMember } from './account-helpers';
import { performerOf } from './chat-helpers';
import { Client, expectError, expectJson, OPS, req } from './helpers';
import { reply, sendOk, writer } from './messages-helpers';
import { decryptPush, newSubscription, type TestSubscription } from './push-receiver';

// Issue 30 point 5, Web Push: the opt-in API (validation, CSRF, ownership), and what is sent.
// The push service is a local receiver: fetch to https://push.example.test/ is answered here,
// and each body is decrypted with the subscription's private key and auth secret, as a browser would.

const SLOW = 60_000;
const PUSH_ORIGIN = 'https://push.example.test';

interface Received {
  endpoint: string;
  headers: Headers;
  body: Uint8Array;
}

let received: Received[] = [];
/** Status the receiver answers per endpoint (default 201). */
let statusOf: Map<string, number> = new Map();

beforeEach(() => {
  received = [];
  statusOf = new Map();
  const real = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith(`${PUSH_ORIGIN}/`)) return real(input as RequestInfo, init);
    received.push({ endpoint: request.url, headers: request.headers, body: new Uint8Array(await request.arrayBuffer()) });
    return new Response(null, { status: statusOf.get(request.url) ?? 201 });
  });
});
afterEach(() => vi.restoreAllMocks());

let n = 0;
const endpointFor = () => `${PUSH_ORIGIN}/send/${Date.now()}-${n++}`;

async function subscribe(client: Client, kinds?: Record<string, boolean>): Promise<TestSubscription> {
  const sub = await newSubscription(endpointFor());
  const res = await client.post('/api/push/subscription', { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth }, ...(kinds ? { kinds } : {}) });
  await expectJson(res, 201);
  return sub;
}

async function readPush(sub: TestSubscription): Promise<PushMessage[]> {
  const mine = received.filter((r) => r.endpoint === sub.endpoint);
  return Promise.all(mine.map(async (r) => JSON.parse(await decryptPush(r.body, sub)) as PushMessage));
}

const rows = async (endpoint: string) => (await env.DB.prepare('SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = ?').bind(endpoint).first<{ n: number }>())!.n;

describe('push: the opt-in API', () => {
  it('gives the VAPID public key of the configuration', async () => {
    const body = await expectJson<{ publicKey: string }>(await req('/api/push/key'), 200);
    expect(body.publicKey).toBe(env.VAPID_PUBLIC_KEY);
    expect(b64uDecode(body.publicKey)).toHaveLength(65);
  });

  it('subscribes only a logged-in member, with the CSRF header, and answers bad input with 422 field errors', async () => {
    const sub = await newSubscription(endpointFor());
    const good = { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } };
    await expectError(await new Client().post('/api/push/subscription', good), 401, 'unauthenticated');
    const m = await registerMember();
    expect((await m.client.post('/api/push/subscription', good, { csrf: false })).status).toBe(419);
    await expectError(await m.client.post('/api/push/subscription', { ...good, endpoint: 'http://push.example.test/x' }), 422, 'validation_failed', ['endpoint', 'invalid_endpoint']);
    await expectError(await m.client.post('/api/push/subscription', { ...good, keys: { p256dh: 'abc', auth: sub.auth } }), 422, 'validation_failed', ['keys.p256dh', 'invalid_key']);
    await expectError(await m.client.post('/api/push/subscription', { ...good, keys: { p256dh: sub.p256dh, auth: '!!' } }), 422, 'validation_failed', ['keys.auth', 'invalid_key']);
    // Only a push service's host (here the local receiver's, PUSH_SERVICE_HOSTS): the worker never posts to a member's own address.
    for (const endpoint of ['https://attacker.example/x', 'https://push.example.test.attacker.example/x', 'https://127.0.0.1/x']) {
      await expectError(await m.client.post('/api/push/subscription', { ...good, endpoint }), 422, 'validation_failed', ['endpoint', 'not_push_service']);
    }
    expect((await m.client.post('/api/push/subscription', { ...good, kinds: { marketing: true } })).status).toBe(422);
    expect((await m.client.post('/api/push/subscription', 'not json', { contentType: 'application/json' })).status).toBe(422);
    expect(await rows(sub.endpoint)).toBe(0);
    const ok = await expectJson<PushSubscriptionAnswer>(await m.client.post('/api/push/subscription', good), 201);
    expect(ok.subscription).toEqual({ endpoint: sub.endpoint, kinds: { favorite_online: true, message: true } });
    const read = await expectJson<PushSubscriptionAnswer>(await m.client.get(`/api/push/subscription?endpoint=${encodeURIComponent(sub.endpoint)}`), 200);
    expect(read.subscription?.kinds).toEqual({ favorite_online: true, message: true });
  });

  it('turns each kind off and on, and only the owner may change or remove a subscription', async () => {
    const owner = await registerMember();
    const other = await registerMember();
    const sub = await subscribe(owner.client);
    const patch = (c: Client, kinds: Record<string, boolean>) => c.fetch('/api/push/subscription', { method: 'PATCH', body: { endpoint: sub.endpoint, kinds } });
    expect((await owner.client.fetch('/api/push/subscription', { method: 'PATCH', body: { endpoint: sub.endpoint, kinds: { message: false } }, csrf: false })).status).toBe(419);
    const off = await expectJson<PushSubscriptionAnswer>(await patch(owner.client, { message: false }), 200);
    expect(off.subscription?.kinds).toEqual({ favorite_online: true, message: false });
    await expectError(await patch(other.client, { favorite_online: false }), 404, 'not_found');
    await expectError(await other.client.fetch('/api/push/subscription', { method: 'DELETE', body: { endpoint: sub.endpoint } }), 404, 'not_found');
    const theirs = await expectJson<PushSubscriptionAnswer>(await other.client.get(`/api/push/subscription?endpoint=${encodeURIComponent(sub.endpoint)}`), 200);
    expect(theirs.subscription).toBeNull();
    expect(await rows(sub.endpoint)).toBe(1);
    await expectJson(await owner.client.fetch('/api/push/subscription', { method: 'DELETE', body: { endpoint: sub.endpoint } }), 200);
    expect(await rows(sub.endpoint)).toBe(0);
  });
});

describe('push: limits', () => {
  it('keeps the newest browsers of a member only (a new one beyond the cap replaces the oldest)', async () => {
    const m = await registerMember();
    const subs: TestSubscription[] = [];
    for (let i = 0; i < PUSH_MAX_PER_MEMBER + 2; i++) subs.push(await subscribe(m.client));
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?').bind(m.id).first<{ n: number }>();
    expect(n!.n).toBe(PUSH_MAX_PER_MEMBER);
    expect(await rows(subs[subs.length - 1].endpoint)).toBe(1);
    // A burst of 25 parallel subscriptions of another member still leaves the cap.
    const burst = await registerMember();
    await Promise.all(Array.from({ length: 25 }, () => subscribe(burst.client)));
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?').bind(burst.id).first<{ n: number }>();
    expect(after!.n).toBe(PUSH_MAX_PER_MEMBER);
  });
});

describe('push: what is sent', () => {
  it("a performer's reply is pushed to the member's browser, encrypted for its keys and signed with VAPID; not once the member turns messages off", { timeout: SLOW }, async () => {
    const m = await writer();
    const sub = await subscribe(m.client);
    const sent = await sendOk(m, 3, 'Hello');
    expect((await reply(await performerOf(3), sent.conversation.id, 'A secret answer')).status).toBe(200);
    const [push, ...more] = received.filter((r) => r.endpoint === sub.endpoint);
    expect(more).toHaveLength(0);
    expect(push.headers.get('Content-Encoding')).toBe('aes128gcm');
    expect(Number(push.headers.get('TTL'))).toBeGreaterThan(0);
    const auth = /^vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(.+)$/.exec(push.headers.get('Authorization') ?? '');
    expect(auth?.[4]).toBe(env.VAPID_PUBLIC_KEY);
    const claims = JSON.parse(new TextDecoder().decode(b64uDecode(auth![2])));
    expect(claims.aud).toBe(PUSH_ORIGIN);
    const key = await crypto.subtle.importKey('jwk', p256Jwk(b64uDecode(auth![4])), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    expect(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, b64uDecode(auth![3]), new TextEncoder().encode(`${auth![1]}.${auth![2]}`))).toBe(true);
    const [message] = await readPush(sub);
    expect(message).toMatchObject({ kind: 'message', title: 'New message', url: '/messages' });
    // The lock screen never shows what was written.
    expect(JSON.stringify(message)).not.toContain('secret');

    await m.client.fetch('/api/push/subscription', { method: 'PATCH', body: { endpoint: sub.endpoint, kinds: { message: false } } });
    received = [];
    expect((await reply(await performerOf(3), sent.conversation.id, 'Another')).status).toBe(200);
    expect(received).toHaveLength(0);
  });

  it('a favourite going online is pushed inside its notification window only, in the member\'s language, once per window', { timeout: SLOW }, async () => {
    const inside = await registerMember();
    const outside = await registerMember();
    const noKind = await registerMember();
    const show = 71;
    const setOnline = (online: boolean) => req(`/api/ops/shows/${show}/status`, { method: 'POST', headers: OPS, body: JSON.stringify({ online }) });
    await setOnline(false);
    const now = new Date();
    const base = Math.floor((now.getUTCHours() * 60 + now.getUTCMinutes()) / 15) * 15;
    const win = (start: number) => ({ info_start: start, info_end: (start + 30) % 1440 });
    await expectJson(await inside.client.post(`/api/favorites/${show}`, win(base)), 201);
    await expectJson(await outside.client.post(`/api/favorites/${show}`, win((base + 60) % 1440)), 201);
    await expectJson(await noKind.client.post(`/api/favorites/${show}`, { info_start: 0, info_end: 0 }), 201);
    await env.DB.prepare("UPDATE users SET locale = 'de' WHERE id = ?").bind(inside.id).run();
    const subInside = await subscribe(inside.client);
    const subOutside = await subscribe(outside.client);
    const subNoKind = await subscribe(noKind.client, { favorite_online: false });
    expect((await setOnline(true)).status).toBe(200);
    const name = (await env.DB.prepare('SELECT name, slug_name FROM shows WHERE id = ?').bind(show).first<{ name: string; slug_name: string }>())!;
    const got = await readPush(subInside);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ kind: 'favorite_online', title: `${name.name} ist jetzt live`, url: `/chat/${show}/${name.slug_name}` });
    expect(await readPush(subOutside)).toHaveLength(0);
    expect(await readPush(subNoKind)).toHaveLength(0);
    await setOnline(false);
    await setOnline(true);
    expect(await readPush(subInside)).toHaveLength(1);
  });

  it('a 404 or 410 from the push service removes the subscription; other failures keep it', { timeout: SLOW }, async () => {
    const m = await writer();
    const gone = await subscribe(m.client);
    const missing = await subscribe(m.client);
    const busy = await subscribe(m.client);
    statusOf.set(gone.endpoint, 410);
    statusOf.set(missing.endpoint, 404);
    statusOf.set(busy.endpoint, 503);
    const sent = await sendOk(m, 4, 'Hi');
    expect((await reply(await performerOf(4), sent.conversation.id)).status).toBe(200);
    expect(received.map((r) => r.endpoint).sort()).toEqual([gone.endpoint, missing.endpoint, busy.endpoint].sort());
    expect(await rows(gone.endpoint)).toBe(0);
    expect(await rows(missing.endpoint)).toBe(0);
    expect(await rows(busy.endpoint)).toBe(1);
  });
});

describe('push: a subscription the browser replaced (the service worker\'s pushsubscriptionchange)', () => {
  const renew = (body: unknown) => req('/api/push/renew', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const renewal = (old: TestSubscription, next: TestSubscription, oldAuth = old.auth) => ({
    old_endpoint: old.endpoint,
    old_auth: oldAuth,
    endpoint: next.endpoint,
    keys: { p256dh: next.p256dh, auth: next.auth },
  });

  it('moves the subscription with its member and kinds, without a login, on the old auth secret alone; pushes reach the new one', { timeout: SLOW }, async () => {
    const m = await writer();
    const old = await subscribe(m.client, { favorite_online: false });
    const next = await newSubscription(endpointFor());
    const stranger = await newSubscription(endpointFor());
    // Another secret, an unknown endpoint, bad input, a host that is no push service: nothing changes.
    await expectError(await renew(renewal(old, next, stranger.auth)), 404, 'not_found');
    await expectError(await renew(renewal(stranger, next)), 404, 'not_found');
    await expectError(await renew({ ...renewal(old, next), old_auth: 'short' }), 422, 'validation_failed', ['old_auth', 'invalid_key']);
    await expectError(await renew({ ...renewal(old, next), keys: { p256dh: 'x', auth: next.auth } }), 422, 'validation_failed', ['keys.p256dh', 'invalid_key']);
    await expectError(await renew({ ...renewal(old, next), endpoint: 'https://attacker.example/x' }), 422, 'validation_failed', ['endpoint', 'not_push_service']);
    expect((await req('/api/push/renew', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"old_endpoint":' })).status).toBe(422);
    expect(await rows(old.endpoint)).toBe(1);
    expect(await rows(next.endpoint)).toBe(0);

    // Two reports of one change at once: one moves it, the other finds nothing left.
    const statuses = (await Promise.all([renew(renewal(old, next)), renew(renewal(old, next))])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 404]);
    expect(await rows(old.endpoint)).toBe(0);
    const moved = await expectJson<PushSubscriptionAnswer>(await m.client.get(`/api/push/subscription?endpoint=${encodeURIComponent(next.endpoint)}`), 200);
    expect(moved.subscription?.kinds).toEqual({ favorite_online: false, message: true });
    const sent = await sendOk(m, 5, 'Hello');
    expect((await reply(await performerOf(5), sent.conversation.id)).status).toBe(200);
    expect(await readPush(next)).toMatchObject([{ kind: 'message' }]);
    expect(await readPush(old)).toHaveLength(0);
  });
});
