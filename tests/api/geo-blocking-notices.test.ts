import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mailsTo, registerMember, type Member } from './account-helpers';
import { performerOf } from './chat-helpers';
import { Client, expectJson, OPS, req } from './helpers';
import { newSubscription, type TestSubscription } from './push-receiver';

// Geo-blocking (issue 30 point 3), the favourite-online notices that leave the site: Web Push and
// mail know no request, so they go by the member's last known place (users.geo_*, migration
// 0040), recorded at login, push subscribe and push renew. A member whose last place the show is
// hidden from gets neither; members elsewhere, or with no known place, get both.

const SLOW = 60_000;
const SHOW = 13;
const PUSH_ORIGIN = 'https://push.example.test';

let pushed: string[] = [];
beforeEach(() => {
  pushed = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith(`${PUSH_ORIGIN}/`)) return real(input as RequestInfo, init);
    pushed.push(request.url);
    return new Response(null, { status: 201 });
  });
});
afterEach(() => vi.restoreAllMocks());

let n = 0;
const geo = (place: string | null): Record<string, string> => (place ? { 'X-Dev-Geo': place } : {});

async function subscribe(client: Client, place: string | null): Promise<TestSubscription> {
  const sub = await newSubscription(`${PUSH_ORIGIN}/send/geo-${Date.now()}-${n++}`);
  await expectJson(await client.post('/api/push/subscription', { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, { headers: geo(place) }), 201);
  return sub;
}

async function logInFrom(m: Member, place: string | null): Promise<void> {
  await expectJson(await m.client.post('/api/auth/login', { username: m.name, password: m.password }, { headers: geo(place) }), 200);
}

const placeOf = async (m: Member) =>
  (await env.DB.prepare('SELECT geo_country, geo_region FROM users WHERE id = ?').bind(m.id).first<{ geo_country: string | null; geo_region: string | null }>())!;
const favMails = async (m: Member) => (await mailsTo(m.email)).filter((x) => x.kind === 'favorite').length;
const setOnline = (online: boolean) => req(`/api/ops/shows/${SHOW}/status`, { method: 'POST', headers: OPS, body: JSON.stringify({ online }) });

describe('geo-blocking: favourite-online push and mail', () => {
  it('records the last known place at login, subscribe and renew; an unknown place keeps the last one; cancelling the account erases it', async () => {
    const m = await registerMember();
    expect(await placeOf(m)).toEqual({ geo_country: null, geo_region: null });
    await logInFrom(m, 'US-CA');
    expect(await placeOf(m)).toEqual({ geo_country: 'US', geo_region: 'US-CA' });
    await logInFrom(m, null);
    expect(await placeOf(m)).toEqual({ geo_country: 'US', geo_region: 'US-CA' });
    const sub = await subscribe(m.client, 'AT');
    expect(await placeOf(m)).toEqual({ geo_country: 'AT', geo_region: null });
    const next = await newSubscription(`${PUSH_ORIGIN}/send/geo-renew-${n++}`);
    const renew = { old_endpoint: sub.endpoint, old_auth: sub.auth, endpoint: next.endpoint, keys: { p256dh: next.p256dh, auth: next.auth } };
    expect((await req('/api/push/renew', { method: 'POST', headers: { 'Content-Type': 'application/json', ...geo('DE-BY') }, body: JSON.stringify(renew) })).status).toBe(200);
    expect(await placeOf(m)).toEqual({ geo_country: 'DE', geo_region: 'DE-BY' });
    // Personal data: a cancelled account keeps no place.
    expect((await m.client.post('/api/user/cancel', { password: m.password })).status).toBe(200);
    expect(await placeOf(m)).toEqual({ geo_country: null, geo_region: null });
  });

  it('a member whose last place the show is hidden from (country or region) gets neither push nor mail; others get both', { timeout: SLOW }, async () => {
    const performer = await performerOf(SHOW);
    expect((await performer.put('/api/studio/geo', { codes: ['AT', 'US-CA'] })).status).toBe(200);
    await setOnline(false);
    const [country, region, renewed, elsewhere, unknown] = await Promise.all([1, 2, 3, 4, 5].map(() => registerMember()));
    const subs = new Map<Member, TestSubscription>();
    await logInFrom(country, 'AT');
    subs.set(country, await subscribe(country.client, null));
    subs.set(region, await subscribe(region.client, 'US-CA'));
    // Subscribed from France, the browser's renewal comes from Austria.
    const old = await subscribe(renewed.client, 'FR');
    const next = await newSubscription(`${PUSH_ORIGIN}/send/geo-renewed-${n++}`);
    const renew = { old_endpoint: old.endpoint, old_auth: old.auth, endpoint: next.endpoint, keys: { p256dh: next.p256dh, auth: next.auth } };
    expect((await req('/api/push/renew', { method: 'POST', headers: { 'Content-Type': 'application/json', ...geo('AT') }, body: JSON.stringify(renew) })).status).toBe(200);
    subs.set(renewed, next);
    await logInFrom(elsewhere, 'US-NY');
    subs.set(elsewhere, await subscribe(elsewhere.client, 'US-NY'));
    subs.set(unknown, await subscribe(unknown.client, null));
    for (const m of subs.keys()) await expectJson(await m.client.post(`/api/favorites/${SHOW}`, { info_start: 0, info_end: 0 }), 201);

    expect((await setOnline(true)).status).toBe(200);
    const got = async (m: Member) => ({ push: pushed.filter((u) => u === subs.get(m)!.endpoint).length, mail: await favMails(m) });
    // The test can fail: the notices went out, to the members who may see the show.
    expect(await got(elsewhere)).toEqual({ push: 1, mail: 1 });
    expect(await got(unknown)).toEqual({ push: 1, mail: 1 });
    for (const m of [country, region, renewed]) expect(await got(m), m.name).toEqual({ push: 0, mail: 0 });
  });
});
