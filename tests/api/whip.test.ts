import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { WHIP_CALLS_PER_ADDRESS } from '../../src/server/features/video/whip.routes';
import { WHIP_TAKEOVER_AFTER_MS } from '../../src/server/features/video/video-whip';
import { sha256Hex } from '../../src/server/lib/crypto';
import { Client, expectJson, req, uniqueIp } from './helpers';
import { chatMember, liveShow, performerOf, startOk, viewer } from './chat-helpers';
import { FakeRealtime } from './fake-realtime';
import { closedAll, OFFER, sfuHelpers, useFakeSfu } from './sfu-helpers';

// OBS over WHIP (issue 28, RFC 9725) against the SFU fake (shows 216-220): the studio's stream
// key (shown once, stored as a hash, a new one replaces the old), POST /whip/{show} publishing
// as the studio's camera does, DELETE ending it, and every refusal changing nothing.

const fake = new FakeRealtime();
fake.connectWaitMs = 50;
useFakeSfu(fake);
const { pull, closes } = sfuHelpers(fake);

interface KeyInfo {
  server: string;
  exists: boolean;
  createdAt: number | null;
  key?: string;
}

async function newKey(performer: Client): Promise<string> {
  const made = await expectJson<KeyInfo>(await performer.post('/api/studio/stream-key'), 200);
  expect(made.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
  return made.key!;
}

function whip(path: string, opts: { method?: string; key?: string | null; type?: string; body?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  return new Client().fetch(path, { method: opts.method ?? 'POST', headers, body: opts.body, contentType: opts.type ?? (opts.body === undefined ? null : 'application/sdp'), csrf: false });
}

const videoOf = (showId: number) => runInDurableObject(roomOf(env, showId), (room: ShowRoom) => ({ live: room.room.video.live, whip: room.room.video.whip }));
const publishCalls = () => fake.callsTo('/sessions/new').length;

describe('stream keys (/api/studio/stream-key)', () => {
  it('made by the performer, shown once, kept as a hash; members and visitors get none', async () => {
    const performer = await performerOf(216);
    const before = await expectJson<KeyInfo>(await performer.get('/api/studio/stream-key'), 200);
    expect(before.server).toMatch(/\/whip\/216$/);
    const key = await newKey(performer);
    const after = await expectJson<KeyInfo>(await performer.get('/api/studio/stream-key'), 200);
    expect(after).toMatchObject({ exists: true, server: before.server });
    expect(after.key).toBeUndefined();
    const row = await env.DB.prepare('SELECT key_hash FROM stream_keys WHERE show_id = 216').first<{ key_hash: string }>();
    expect(row?.key_hash).toBe(await sha256Hex(key));
    const m = await chatMember();
    expect((await m.client.post('/api/studio/stream-key')).status).toBe(403);
    expect((await new Client().get('/api/studio/stream-key')).status).toBe(401);
  });
});

describe('WHIP ingest (/whip/{show})', () => {
  it(`takes at most ${WHIP_CALLS_PER_ADDRESS} calls per address and hour, also from parallel ones, bad ones counted`, async () => {
    const ip = uniqueIp();
    const statuses = await Promise.all(
      Array.from({ length: WHIP_CALLS_PER_ADDRESS + 10 }, () => new Client(ip).fetch('/whip/217', { method: 'POST', headers: { Authorization: 'Bearer sk_nothing' }, body: OFFER, contentType: 'application/sdp', csrf: false }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401).length).toBe(WHIP_CALLS_PER_ADDRESS);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    // Another address is not affected.
    expect((await whip('/whip/217', { key: 'sk_nothing', body: OFFER })).status).toBe(401);
  });

  it('refuses what RFC 9725 refuses and changes nothing: no key, a wrong or foreign key, not SDP, a bad offer, an offline show', async () => {
    const { show, performer, studio } = await liveShow(217);
    const key = await newKey(performer);
    const other = await newKey(await performerOf(218));
    const calls = fake.calls.length;
    const none = await whip(`/whip/${show.id}`, { body: OFFER });
    expect(none.status).toBe(401);
    expect(none.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
    const wrong = await whip(`/whip/${show.id}`, { key: 'sk_' + 'x'.repeat(43), body: OFFER });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('WWW-Authenticate')).toContain('invalid_token');
    expect((await whip(`/whip/${show.id}`, { key: other, body: OFFER })).status).toBe(403);
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER, type: 'application/json' })).status).toBe(415);
    expect((await whip(`/whip/${show.id}`, { key, body: 'hello' })).status).toBe(400);
    const audioOnly = OFFER.split('m=video')[0]!;
    expect(await expectJson(await whip(`/whip/${show.id}`, { key, body: audioOnly }), 422)).toEqual({ message: 'whip.no_video' });
    const twoVideos = OFFER + OFFER.slice(OFFER.indexOf('m=video')).replace('a=mid:1', 'a=mid:2');
    expect(await expectJson(await whip(`/whip/${show.id}`, { key, body: twoVideos }), 422)).toEqual({ message: 'whip.too_many_tracks' });
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER.replace(/a=sendonly/g, 'a=recvonly') })).status).toBe(422);
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER + 'a=x:' + 'y'.repeat(16_000) })).status).toBe(413);
    // A streamed body without a length is cut off at the cap too.
    const big = new TextEncoder().encode(OFFER + 'a=x:' + 'y'.repeat(4_000));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(big);
        else controller.close();
      },
    });
    expect((await req(`/whip/${show.id}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/sdp' }, body: stream })).status).toBe(413);
    expect(fake.calls.length).toBe(calls);
    // Offline: the room refuses before any SFU call.
    await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
    expect(await expectJson(await whip(`/whip/${show.id}`, { key, body: OFFER }), 409)).toEqual({ message: 'video.not_online' });
    expect(fake.calls.length).toBe(calls);
    expect(await videoOf(show.id)).toEqual({ live: false, whip: null });
    studio.ws.close(1000);
  });

  it('publishes as the camera does: 201 with the answer and a Location, viewers get it, a second publisher gets 409, DELETE ends it; a new key stops the old', async () => {
    const { show, performer, studio } = await liveShow(218);
    const key = await newKey(performer);
    const preflight = await whip(`/whip/${show.id}`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Accept-Post')).toBe('application/sdp');
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('camera_off');

    const made = publishCalls();
    const res = await whip(`/whip/${show.id}`, { key, body: OFFER });
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toBe('application/sdp');
    expect(new TextDecoder().decode(await res.arrayBuffer())).toBe(`answer-to:${OFFER}`);
    const location = res.headers.get('Location') ?? '';
    expect(location).toMatch(new RegExp(`^/whip/${show.id}/[A-Za-z0-9_-]{24}$`));
    expect(res.headers.get('ETag')).toBe(`"${location.split('/').pop()}"`);
    expect(publishCalls()).toBe(made + 1);
    expect((await studio.next('video-viewers', (e) => e.whip)).whip).toBe(true);
    expect((await free.next('video')).state).toBe('live');
    const freeSession = await pull(show.id, free, f.sessionId);

    // A second publisher at once (another OBS, or the same key again, or the studio's camera) changes nothing.
    const sessions = publishCalls();
    studio.send({ t: 'signal', to: 'relay', data: { kind: 'offer', sdp: OFFER } });
    expect((await studio.next('error')).code).toBe('video.whip_live');
    const again = await Promise.all([whip(`/whip/${show.id}`, { key, body: OFFER }), whip(`/whip/${show.id}`, { key, body: OFFER })]);
    expect(again.map((r) => r.status)).toEqual([409, 409]);
    expect(publishCalls()).toBe(sessions);
    expect((await whip(`${location}`, { method: 'PATCH', key, body: 'a=end-of-candidates', type: 'application/trickle-ice-sdpfrag' })).headers.get('Allow')).toBe('DELETE, OPTIONS');

    // A new key: the old one opens nothing, not even the running resource.
    const key2 = await newKey(performer);
    expect((await whip(location, { method: 'DELETE', key })).status).toBe(401);
    expect((await whip(`/whip/${show.id}/not-a-resource`, { method: 'DELETE', key: key2 })).status).toBe(404);
    expect((await videoOf(show.id)).live).toBe(true);
    expect((await whip(location, { method: 'DELETE', key: key2 })).status).toBe(200);
    expect((await studio.next('video-viewers', (e) => !e.whip)).whip).toBe(false);
    expect((await free.next('video')).state).toBe('camera_off');
    await expect.poll(() => closes(freeSession), { timeout: 5_000 }).toEqual([closedAll]);
    expect(await videoOf(show.id)).toEqual({ live: false, whip: null });
    expect((await whip(location, { method: 'DELETE', key: key2 })).status).toBe(404);
    // The old key cannot publish again; the new one can.
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER })).status).toBe(401);
    expect((await whip(`/whip/${show.id}`, { key: key2, body: OFFER })).status).toBe(201);
    // The studio ends the OBS broadcast (as when its camera stops).
    studio.send({ t: 'video', live: false });
    await expect.poll(() => videoOf(show.id), { timeout: 5_000 }).toEqual({ live: false, whip: null });
    for (const s of [free, studio]) s.ws.close(1000);
  });

  it('a private cuts the free viewers off by closing their pulls, and the OBS publication stays for the private', async () => {
    const { show, performer, studio } = await liveShow(216);
    const key = await newKey(performer);
    const res = await whip(`/whip/${show.id}`, { key, body: OFFER });
    expect(res.status).toBe(201);
    const pubSession = fake.calls[fake.calls.length - 1]!.path.match(/sessions\/([^/]+)\/tracks\/new$/)![1]!;
    const frees = [];
    for (let i = 0; i < 3; i++) {
      const f = await startOk(new Client(), show.universalId, 'free');
      const socket = await viewer(show.id, f);
      expect((await socket.next('video')).state).toBe('live');
      frees.push({ socket, session: await pull(show.id, socket, f.sessionId) });
    }
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    for (const f of frees) expect((await f.socket.next('video', (e) => e.state !== 'live')).state).toBe('private');
    for (const f of frees) await expect.poll(() => closes(f.session), { timeout: 5_000 }).toEqual([closedAll]);
    // Not the publication: OBS cannot be asked to publish again, and the private needs it.
    expect(closes(pubSession)).toEqual([]);
    expect((await videoOf(show.id)).live).toBe(true);
    await member.next('video', (e) => e.state === 'live');
    await pull(show.id, member, p.sessionId);
    for (const s of [...frees.map((f) => f.socket), member, studio]) s.ws.close(1000);
  });

  it('the studio watches what OBS sends: pulled as a viewer is, not counted, kept through a private, closed when OBS ends; refused without OBS', async () => {
    const { show, performer, studio } = await liveShow(219);
    // Nothing to watch yet (the camera is off, OBS sends nothing): no pull, and no error on the studio's screen.
    const nothingPulled = async () => {
      const sessions = fake.callsTo('/sessions/new').length;
      studio.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.callsTo('/sessions/new').length).toBe(sessions);
      expect(studio.events.filter((e) => e.t === 'error' || e.t === 'signal')).toEqual([]);
    };
    await nothingPulled();
    const key = await newKey(performer);
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER })).status).toBe(201);
    expect((await studio.next('video-viewers', (e) => e.whip)).count).toBe(0);
    const monitor = await pull(show.id, studio, 'performer');
    // A private: the free viewers go, the monitor stays (the performer sees what the member sees).
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    await member.next('video', (e) => e.state === 'live');
    await pull(show.id, member, p.sessionId);
    expect((await studio.next('video-viewers', (e) => e.count === 1)).count).toBe(1);
    expect(closes(monitor)).toEqual([]);
    // OBS ends: so does the monitor.
    studio.send({ t: 'video', live: false });
    await expect.poll(() => closes(monitor), { timeout: 5_000 }).toEqual([closedAll]);
    await studio.next('video-viewers', (e) => !e.whip);
    await nothingPulled();
    for (const s of [member, studio]) s.ws.close(1000);
  });

  it('OBS reconnecting after its network dropped: a new POST replaces a publication the SFU gets no media for, only then, and only once', async () => {
    const { show, performer, studio } = await liveShow(220);
    const key = await newKey(performer);
    const lastPublished = () => fake.calls.filter((c) => /tracks\/new$/.test(c.path)).pop()!.path.split('/')[4]!;
    const asked = (session: string) => fake.calls.filter((c) => c.method === 'GET' && c.path.endsWith(`/sessions/${session}`)).length;
    const age = () => runInDurableObject(roomOf(env, show.id), (room: ShowRoom) => void (room.room.video.whip!.at -= WHIP_TAKEOVER_AFTER_MS));
    const first = await whip(`/whip/${show.id}`, { key, body: OFFER });
    expect(first.status).toBe(201);
    const firstSession = lastPublished();
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    const live = await free.next('video', (e) => e.state === 'live');
    // Media stopped, but the publication is new: 409 without asking the SFU.
    fake.stopMedia(firstSession, false);
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER })).status).toBe(409);
    expect(asked(firstSession)).toBe(0);
    // Old, media flowing: 409.
    fake.connect(firstSession);
    await age();
    expect((await whip(`/whip/${show.id}`, { key, body: OFFER })).status).toBe(409);
    expect(asked(firstSession)).toBe(1);
    // Old and no media: the new offer takes its place.
    fake.stopMedia(firstSession, false);
    const reconnect = await whip(`/whip/${show.id}`, { key, body: OFFER });
    expect(reconnect.status).toBe(201);
    expect(reconnect.headers.get('Location')).not.toBe(first.headers.get('Location'));
    expect(closes(firstSession).length).toBe(1);
    // The viewers get the new publication (a new epoch); the old resource is gone.
    expect((await free.next('video', (e) => e.state === 'live' && e.epoch > live.epoch)).state).toBe('live');
    expect((await whip(first.headers.get('Location')!, { method: 'DELETE', key })).status).toBe(404);
    // Two reconnects at once for a stopped publication: one publishes.
    fake.stopMedia(lastPublished(), false);
    await age();
    const made = publishCalls();
    const both = await Promise.all([whip(`/whip/${show.id}`, { key, body: OFFER }), whip(`/whip/${show.id}`, { key, body: OFFER })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(publishCalls()).toBe(made + 1);
    expect((await videoOf(show.id)).live).toBe(true);
    for (const s of [free, studio]) s.ws.close(1000);
  });
});
