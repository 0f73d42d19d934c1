import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { minutePrice } from '../../src/shared/chat';
import { offerTracks } from '../../src/server/features/video/video-engines';
import { Client, expectError, expectJson, req } from './helpers';
import { chatMember, liveShow, pinged, type RoomSocket, startOk, viewer } from './chat-helpers';

// The show room's video rules with the peer-to-peer engine (the default; shows 231-238): who is
// sent video in each mode, the signalling between the performer's browser and permitted
// viewers, the viewer cap, publishing only while online, and the ICE endpoint. The env object
// the tests import is the one the worker and the room read (same isolate), so a test may
// override a variable for its duration (VIDEO_P2P_MAX_VIEWERS, ICE_SERVERS) and restore it.

/**
 * The performer's viewer list that equals `list` (order matters: priority order); the older lists
 * queued before it are dropped, so the next `video-viewers` taken is the one sent after it.
 */
export async function listed(studio: RoomSocket, list: string[]) {
  const same = (e: RoomSocket['events'][number]) => e.t === 'video-viewers' && JSON.stringify(e.viewers) === JSON.stringify(list);
  const at = studio.events.findIndex(same);
  const older = at >= 0 ? studio.events.slice(0, at + 1) : [...studio.events];
  for (const e of older) if (e.t === 'video-viewers') studio.events.splice(studio.events.indexOf(e), 1);
  if (at >= 0) return older[older.length - 1] as Extract<RoomSocket['events'][number], { t: 'video-viewers' }>;
  return studio.next('video-viewers', (e) => same(e));
}

async function withEnv<T>(over: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const vars = env as unknown as Record<string, string | undefined>;
  const before = Object.fromEntries(Object.keys(over).map((k) => [k, vars[k]]));
  Object.assign(vars, over);
  try {
    return await run();
  } finally {
    Object.assign(vars, before);
  }
}

describe('show room video: who receives (p2p engine)', () => {
  it('camera off until the performer publishes; then the free viewer is live with a new epoch and listed for the performer', async () => {
    const { show, studio } = await liveShow(231);
    const a = await startOk(new Client(), show.universalId, 'free');
    const room = await viewer(show.id, a);
    const off = await room.next('video');
    expect(off.state).toBe('camera_off');
    studio.send({ t: 'video', live: true });
    const live = await room.next('video');
    expect(live).toEqual({ t: 'video', state: 'live', epoch: off.epoch + 1, layers: ['f', 'h', 'q'] });
    expect(await listed(studio, [a.sessionId])).toEqual({ t: 'video-viewers', viewers: [a.sessionId], count: 1, epoch: live.epoch, relay: 'p2p', whip: false });
    // The camera goes off: the viewer is told so (same publication epoch), the performer's list empties.
    studio.send({ t: 'video', live: false });
    expect(await room.next('video')).toEqual({ t: 'video', state: 'camera_off', epoch: live.epoch, layers: ['f', 'h', 'q'] });
    await listed(studio, []);
    for (const s of [room, studio]) s.ws.close(1000);
  });

  it("a viewer told 'live' before the room's next sync (a voyeur paid at its start): its want reaches the performer after a list that has it", async () => {
    const { show, studio } = await liveShow(178);
    studio.send({ t: 'video', live: true });
    await listed(studio, []);
    const vm = await chatMember();
    const v = await startOk(vm.client, show.universalId, 'voyeur');
    const voy = await viewer(show.id, v);
    // The performer's browser offers only to whom its last list names (publisher.ts offerTo).
    voy.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    await pinged(voy);
    await pinged(studio);
    const order = studio.events.flatMap((e) => (e.t === 'video-viewers' && e.viewers.includes(v.sessionId) ? ['list'] : e.t === 'signal' && e.from === v.sessionId ? ['want'] : []));
    expect(order.slice(0, 2)).toEqual(['list', 'want']);
    for (const s of [voy, studio]) s.ws.close(1000);
  });

  it('signalling: a permitted viewer and the performer reach each other only; others are refused and reach nobody', async () => {
    const { show, studio } = await liveShow(232);
    studio.send({ t: 'video', live: true });
    const a = await startOk(new Client(), show.universalId, 'free');
    const b = await startOk(new Client(), show.universalId, 'free');
    const roomA = await viewer(show.id, a);
    const roomB = await viewer(show.id, b);
    expect((await roomA.next('video')).state).toBe('live');
    expect((await roomB.next('video')).state).toBe('live');
    roomA.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    expect(await studio.next('signal')).toEqual({ t: 'signal', from: a.sessionId, to: 'performer', data: { kind: 'want' } });
    studio.send({ t: 'signal', to: a.sessionId, data: { kind: 'offer', sdp: 'v=0 offer for a' } });
    expect(await roomA.next('signal')).toEqual({ t: 'signal', from: 'performer', to: a.sessionId, data: { kind: 'offer', sdp: 'v=0 offer for a' } });
    roomA.send({ t: 'signal', to: 'performer', data: { kind: 'answer', sdp: 'v=0 answer of a' } });
    expect((await studio.next('signal')).data).toEqual({ kind: 'answer', sdp: 'v=0 answer of a' });
    // A viewer may not signal another viewer.
    roomA.send({ t: 'signal', to: b.sessionId, data: { kind: 'offer', sdp: 'v=0 sneaky' } });
    expect((await roomA.next('error')).code).toBe('chat.forbidden');
    // A private starts: b (free) is no longer permitted, either way.
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await roomB.next('video', (e) => e.state !== 'live')).state).toBe('private');
    roomB.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    expect((await roomB.next('error')).code).toBe('video.not_permitted');
    studio.send({ t: 'signal', to: b.sessionId, data: { kind: 'offer', sdp: 'v=0 not for b' } });
    expect((await studio.next('error')).code).toBe('video.not_permitted');
    studio.send({ t: 'signal', to: 'abcdefgh12345', data: { kind: 'offer', sdp: 'v=0 nobody' } });
    expect((await studio.next('error')).code).toBe('video.not_permitted');
    // The permitted member's signal arrives; b's refused one (sent before) never did, nor did a's to b.
    member.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    expect((await studio.next('signal')).from).toBe(p.sessionId);
    await pinged(member);
    expect(studio.events.filter((e) => e.t === 'signal')).toEqual([]);
    expect(roomB.events.filter((e) => e.t === 'signal')).toEqual([]);
    for (const s of [roomA, roomB, member, studio]) s.ws.close(1000);
  });

  it('relay-only (production): no description a viewer or the performer receives carries the other\'s host or reflexive address; without TURN peer to peer is refused', async () => {
    const { show, studio } = await liveShow(252);
    studio.send({ t: 'video', live: true });
    const a = await startOk(new Client(), show.universalId, 'free');
    const room = await viewer(show.id, a);
    expect((await room.next('video')).state).toBe('live');
    // What a modified browser could send despite iceTransportPolicy 'relay': every kind of address.
    const leaky = (who: string) =>
      [
        'v=0',
        `o=- 1 2 IN IP4 192.168.1.${who === 'performer' ? 10 : 20}`,
        's=-',
        't=0 0',
        'm=video 50000 UDP/TLS/RTP/SAVPF 96',
        'c=IN IP4 203.0.113.7',
        'a=rtcp:50001 IN IP4 203.0.113.7',
        'a=candidate:1 1 udp 2122260223 192.168.1.10 50000 typ host generation 0',
        'a=candidate:2 1 udp 1686052607 203.0.113.7 50000 typ srflx raddr 192.168.1.10 rport 50000 generation 0',
        'a=candidate:3 1 udp 41885439 198.51.100.5 3478 typ relay raddr 203.0.113.7 rport 50000 generation 0',
        'a=candidate:4 1 udp 1686052607 2001:db8::7 50000 typ prflx generation 0',
        'a=mid:1',
        '',
      ].join('\r\n');
    // Anywhere in the text: the local and public addresses (also as a relay candidate's raddr, in o=, c=, rtcp).
    const private_ = /192\.168\.1\.|203\.0\.113\.7|2001:db8|typ (host|srflx|prflx)/;
    await withEnv({ VIDEO_P2P_RELAY_ONLY: '1', ICE_SERVERS: JSON.stringify([{ urls: ['turn:turn.example.test:3478'], username: 'u', credential: 'c' }]) }, async () => {
      studio.send({ t: 'signal', to: a.sessionId, data: { kind: 'offer', sdp: leaky('performer') } });
      const offer = await room.next('signal');
      const got = offer.data.kind === 'offer' ? offer.data.sdp : '';
      expect(got).not.toMatch(private_);
      expect(got).toContain('typ relay');
      expect(got).toContain('c=IN IP4 0.0.0.0');
      room.send({ t: 'signal', to: 'performer', data: { kind: 'answer', sdp: leaky('viewer') } });
      const answer = await studio.next('signal');
      expect(answer.data.kind === 'answer' && answer.data.sdp).not.toMatch(private_);
    });
    // Relay-only without any TURN to relay through: refused both ways, nothing passed on.
    await withEnv({ VIDEO_P2P_RELAY_ONLY: '1', ICE_SERVERS: JSON.stringify([{ urls: ['stun:stun.example.test:3478'] }]) }, async () => {
      studio.send({ t: 'signal', to: a.sessionId, data: { kind: 'offer', sdp: leaky('performer') } });
      expect((await studio.next('error')).code).toBe('video.unavailable');
      room.send({ t: 'signal', to: 'performer', data: { kind: 'answer', sdp: leaky('viewer') } });
      expect((await room.next('error')).code).toBe('video.unavailable');
      await expectError(await req(`/api/video/ice?${new URLSearchParams({ show: String(show.id), login: a.login, password: a.password })}`), 503, 'video.unavailable');
    });
    expect(room.events.filter((e) => e.t === 'signal')).toEqual([]);
    for (const s of [room, studio]) s.ws.close(1000);
  });

  it('a private cuts the free viewer off at once, keeps the member and a voyeur, and gives the free viewer its video back when it ends (the voyeur ends with it)', async () => {
    const { show, studio } = await liveShow(233);
    studio.send({ t: 'video', live: true });
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    const vm = await chatMember();
    const v = await startOk(vm.client, show.universalId, 'voyeur');
    const voy = await viewer(show.id, v);
    const pm = await chatMember();
    const p = await startOk(pm.client, show.universalId, 'private');
    const member = await viewer(show.id, p);
    // Free mode: the voyeur first (paying), then by arrival; the pending request sees the preview until accepted.
    await listed(studio, [v.sessionId, f.sessionId]);
    expect((await member.next('video')).state).toBe('waiting');
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await free.next('video', (e) => e.state !== 'live')).state).toBe('private');
    // The first list after the accept already leaves the free viewer out.
    expect((await studio.next('video-viewers')).viewers).toEqual([p.sessionId, v.sessionId]);
    expect((await member.next('video')).state).toBe('live');
    expect(voy.events.some((e) => e.t === 'video' && e.state !== 'live')).toBe(false);
    await expectJson(await pm.client.post(`/api/chatsession/end/${p.sessionId}`), 200);
    expect((await free.next('video')).state).toBe('live');
    expect((await voy.next('ended')).reason).toBe('private_ended');
    expect((await studio.next('video-viewers')).viewers).toEqual([f.sessionId]);
    for (const s of [free, voy, studio]) s.ws.close(1000);
  });

  it('a paid session that ends (no coins, or the member\'s end) leaves the performer\'s list at once', async () => {
    // A four-second minute (one second elsewhere in tests): the poor voyeur must be listed inside
    // its first minute, and on a busy machine joining took more than a second.
    await withEnv({ CHAT_MINUTE_MS: '4000' }, async () => {
      const { show, studio } = await liveShow(234);
      studio.send({ t: 'video', live: true });
      const rich = await chatMember();
      const f = await startOk(new Client(), show.universalId, 'free');
      const free = await viewer(show.id, f);
      // Coins for the voyeur's first minute only: the second minute ends it.
      const poor = await chatMember(minutePrice('voyeur', show.price, show.factor));
      const v = await startOk(poor.client, show.universalId, 'voyeur');
      const voy = await viewer(show.id, v);
      const v2 = await startOk(rich.client, show.universalId, 'voyeur');
      const voy2 = await viewer(show.id, v2);
      await listed(studio, [v.sessionId, v2.sessionId, f.sessionId]);
      await studio.next('ended', (e) => e.sessionId === v.sessionId && e.reason === 'no_coins');
      // The room sends the new list with the end itself: it is there before a ping sent now returns.
      await pinged(studio);
      expect(studio.events.filter((e) => e.t === 'video-viewers').map((e) => e.t === 'video-viewers' && e.viewers)).toEqual([[v2.sessionId, f.sessionId]]);
      studio.events.length = 0;
      await expectJson(await rich.client.post(`/api/chatsession/end/${v2.sessionId}`), 200);
      await studio.next('ended', (e) => e.sessionId === v2.sessionId);
      await pinged(studio);
      expect(studio.events.filter((e) => e.t === 'video-viewers').map((e) => e.t === 'video-viewers' && e.viewers)).toEqual([[f.sessionId]]);
      for (const s of [free, voy, voy2, studio]) s.ws.close(1000);
    });
  });

  it('VIDEO_P2P_MAX_VIEWERS caps the viewers: the one past the cap sees "full" until a place frees up', async () => {
    await withEnv({ VIDEO_P2P_MAX_VIEWERS: '2' }, async () => {
      const { show, studio } = await liveShow(235);
      studio.send({ t: 'video', live: true });
      const ids: string[] = [];
      const rooms: RoomSocket[] = [];
      for (let i = 0; i < 3; i++) {
        const a = await startOk(new Client(), show.universalId, 'free');
        ids.push(a.sessionId);
        rooms.push(await viewer(show.id, a));
      }
      // The viewers sit on two shards whose reports of who is there may reach the room in either
      // order (a CI run on a busy machine: the third told 'live' before the first two were known):
      // once all three are known, the first two receive and the third is full.
      await listed(studio, ids.slice(0, 2));
      expect((await rooms[0].next('video', (e) => e.state === 'live')).state).toBe('live');
      expect((await rooms[1].next('video', (e) => e.state === 'live')).state).toBe('live');
      expect((await rooms[2].next('video', (e) => e.state === 'full')).state).toBe('full');
      // The full viewer may not ask for video.
      rooms[2].send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
      expect((await rooms[2].next('error')).code).toBe('video.not_permitted');
      studio.send({ t: 'kick', sessionId: ids[0] });
      expect((await rooms[2].next('video')).state).toBe('live');
      await listed(studio, ids.slice(1));
      for (const s of [...rooms, studio]) s.ws.close(1000);
    });
  });

  it('publishing needs the show online and not paused; pausing and going offline end the publication, viewers told first', async () => {
    const { show, performer, studio } = await liveShow(236);
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    expect((await free.next('video')).state).toBe('camera_off');
    await expectJson(await performer.post('/api/studio/status', { paused: true }), 200);
    expect((await free.next('video')).state).toBe('paused');
    studio.send({ t: 'video', live: true });
    expect((await studio.next('error')).code).toBe('video.not_online');
    await expectJson(await performer.post('/api/studio/status', { paused: false }), 200);
    expect((await free.next('video')).state).toBe('camera_off');
    studio.send({ t: 'video', live: true });
    expect((await free.next('video')).state).toBe('live');
    // A pause ends the publication: after it the show is back without video until the performer publishes again.
    await expectJson(await performer.post('/api/studio/status', { paused: true }), 200);
    expect((await free.next('video')).state).toBe('paused');
    await expectJson(await performer.post('/api/studio/status', { paused: false }), 200);
    expect((await free.next('video')).state).toBe('camera_off');
    studio.send({ t: 'video', live: true });
    expect((await free.next('video')).state).toBe('live');
    // Offline: the viewer hears "offline" before its session ends; a new viewer later finds the camera off.
    await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
    expect((await free.next('video')).state).toBe('offline');
    await free.next('ended');
    await listed(studio, []);
    studio.send({ t: 'video', live: true });
    expect((await studio.next('error')).code).toBe('video.not_online');
    await expectJson(await performer.post('/api/studio/status', { online: true }), 200);
    const g = await startOk(new Client(), show.universalId, 'free');
    const later = await viewer(show.id, g);
    expect((await later.next('video')).state).toBe('camera_off');
    for (const s of [later, studio]) s.ws.close(1000);
  });
});

// What Chrome offers for a sendonly camera + microphone (trimmed of candidates and most codecs).
const chromeOffer = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'a=extmap-allow-mixed',
  'a=msid-semantic: WMS stream-1',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8',
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=ice-ufrag:abcd',
  'a=ice-pwd:0123456789abcdef01234567',
  'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
  'a=setup:actpass',
  'a=mid:0',
  'a=sendonly',
  'a=msid:stream-1 track-audio',
  'a=rtcp-mux',
  'a=rtpmap:111 opus/48000/2',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=mid:1',
  'a=sendonly',
  'a=msid:stream-1 track-video',
  'a=rtcp-mux',
  'a=rtcp-rsize',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=mid:2',
  'a=sctp-port:5000',
  '',
].join('\r\n');

describe('offerTracks', () => {
  it('offerTracks: each sending audio/video m-section\'s mid and kind; data channels and receive-only sections are not published', () => {
    expect(offerTracks(chromeOffer)).toEqual([
      { mid: '0', kind: 'audio' },
      { mid: '1', kind: 'video' },
    ]);
    expect(offerTracks(chromeOffer.replace(/\r\n/g, '\n'))).toEqual([
      { mid: '0', kind: 'audio' },
      { mid: '1', kind: 'video' },
    ]);
    expect(offerTracks(chromeOffer.replace('a=mid:0\r\na=sendonly', 'a=mid:0\r\na=recvonly'))).toEqual([{ mid: '1', kind: 'video' }]);
    expect(offerTracks('v=0\r\ns=-\r\n')).toEqual([]);
  });

});

describe('GET /api/video/ice', () => {
  const ice = (q: Record<string, string>) => req(`/api/video/ice?${new URLSearchParams(q)}`);

  it('only for a valid room token of that show; the configured servers with the engine', async () => {
    const { show, performer, studio } = await liveShow(237);
    studio.send({ t: 'video', live: true });
    const a = await startOk(new Client(), show.universalId, 'free');
    const room = await viewer(show.id, a);
    expect((await room.next('video')).state).toBe('live');
    await expectError(await ice({ show: String(show.id) }), 401, 'chat.bad_token');
    await expectError(await ice({ show: String(show.id), login: a.login, password: 'x.y.z' }), 401, 'chat.bad_token');
    // The token of this show's session, for another show, or under another login, is refused.
    await expectError(await ice({ show: '231', login: a.login, password: a.password }), 401, 'chat.bad_token');
    await expectError(await ice({ show: String(show.id), login: 'performer', password: a.password }), 401, 'chat.bad_token');
    await expectError(await ice({ show: 'abc', login: a.login, password: a.password }), 422, 'validation_failed', ['show', 'invalid']);
    await expectError(await ice({ show: '1234567890', login: a.login, password: a.password }), 422, 'validation_failed', ['show', 'invalid']);
    const res = await ice({ show: String(show.id), login: a.login, password: a.password });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await expectJson(res, 200)).toEqual({ iceServers: [], ttl: 0, relay: 'p2p' });
    const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
    const servers = JSON.stringify([{ urls: 'stun:stun.example.test:3478' }, { urls: ['turn:turn.example.test:3478'], username: 'u', credential: 'c' }]);
    await withEnv({ ICE_SERVERS: servers }, async () => {
      expect(await expectJson(await ice({ show: String(show.id), ...token }), 200)).toEqual({
        iceServers: [{ urls: ['stun:stun.example.test:3478'] }, { urls: ['turn:turn.example.test:3478'], username: 'u', credential: 'c' }],
        ttl: 0,
        relay: 'p2p',
      });
    });
    for (const bad of ['not json', '{"urls":"stun:x"}', '[{"urls":"http://x"}]', '[{"urls":[]}]']) {
      await withEnv({ ICE_SERVERS: bad }, async () => {
        await expectError(await ice({ show: String(show.id), ...token }), 503, 'video.unavailable');
      });
    }
    await withEnv({ VIDEO_RELAY: 'carrier-pigeon' }, async () => {
      await expectError(await ice({ show: String(show.id), ...token }), 503, 'video.unavailable');
    });
    room.ws.close(1000);
    studio.ws.close(1000);
  });

  it('TURN only for whom the room sends video: the performer, a watching free viewer, the running private and a voyeur; not a guest without video', async () => {
    const { show, performer, studio } = await liveShow(238);
    const servers = JSON.stringify([{ urls: ['turn:turn.example.test:3478'], username: 'u', credential: 'c' }]);
    await withEnv({ ICE_SERVERS: servers }, async () => {
      const got = async (a: { login: string; password: string }) => ice({ show: String(show.id), login: a.login, password: a.password });
      const ok = async (a: { login: string; password: string }) => expect((await expectJson<{ iceServers: unknown[] }>(await got(a), 200)).iceServers).toHaveLength(1);
      const refused = async (a: { login: string; password: string }) => expectError(await got(a), 403, 'video.not_permitted');
      const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
      // The performer publishes: always (before the camera is on too).
      await ok(token);
      // A guest's session that never joined the room (browsing the show page) gets nothing.
      const f = await startOk(new Client(), show.universalId, 'free');
      await refused(f);
      // In the room while the camera is off: nothing is sent, nothing to relay.
      const free = await viewer(show.id, f);
      expect((await free.next('video')).state).toBe('camera_off');
      await refused(f);
      studio.send({ t: 'video', live: true });
      expect((await free.next('video')).state).toBe('live');
      await ok(f);
      // A private runs: the free viewer's video stops and so do its credentials; the member and a voyeur get theirs.
      const pm = await chatMember();
      const p = await startOk(pm.client, show.universalId, 'private');
      const member = await viewer(show.id, p);
      const vm = await chatMember();
      const v = await startOk(vm.client, show.universalId, 'voyeur');
      const voy = await viewer(show.id, v);
      studio.send({ t: 'accept', sessionId: p.sessionId });
      expect((await free.next('video', (e) => e.state !== 'live')).state).toBe('private');
      await refused(f);
      await member.next('session', (e) => e.session.state === 'active');
      await ok(p);
      await ok(v);
      // An ended session's token gets nothing either.
      await expectJson(await vm.client.post(`/api/chatsession/end/${v.sessionId}`), 200);
      await voy.next('ended');
      await refused(v);
      for (const s of [free, member, studio]) s.ws.close(1000);
    });
  });
});
