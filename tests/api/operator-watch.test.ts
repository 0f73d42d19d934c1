import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { LiveAnswer } from '../../src/shared/moderation';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { chatMember, liveShow, roomSocket, startOk, viewer, type RoomSocket } from './chat-helpers';
import { FakeRealtime } from './fake-realtime';
import { closedAll, sfuHelpers, useFakeSfu } from './sfu-helpers';
import { Client, expectError, expectJson } from './helpers';
import { appointed, operator } from './operator-helpers';

// An operator watching a live show unseen, unbilled and silent (issue 29 point 2): the show room's
// hidden watcher (chat/room/watch.ts) behind the operators' door, audited; it gets the public
// lines and the video signalling, is in no count, roster or studio list, cannot write, and its
// socket closes when the show goes offline.

/** A demo show no other Workers test file uses (the seed has none past 264). */
const SHOW = 259;
const WATCH = `/api/operator/shows/${SHOW}/watch`;

/** The watch socket of an operator's client, with an event queue. */
async function watch(c: Client, path = WATCH): Promise<RoomSocket> {
  const res = await c.fetch(path, { headers: { Upgrade: 'websocket' } });
  if (res.status !== 101) throw new Error(`watch answered ${res.status}: ${await res.text()}`);
  return roomSocket(res.webSocket!, Number(path.split('/')[4]), 'watcher');
}

const room = () => roomOf(env, SHOW) as unknown as DurableObjectStub<ShowRoom>;

describe('an operator watching a live show', () => {
  it('only an operator with the second factor, audited; unseen by the performer and the viewers, never billed, cannot write, ends when the show goes offline', async () => {
    const op = await operator();
    const { show, performer, studio } = await liveShow(SHOW, { flag_free: 1 });
    const m = await chatMember(1000);
    const s = await startOk(m.client, show.universalId, 'free');
    const member = await viewer(SHOW, s);
    await studio.next('presence-change', (e) => e.upsert.some((p) => p.id === s.sessionId));

    // The door: a visitor, a member, the performer and an operator without the factor are refused.
    expect((await new Client().fetch(WATCH, { headers: { Upgrade: 'websocket' } })).status).toBe(401);
    await expectError(await m.client.fetch(WATCH, { headers: { Upgrade: 'websocket' } }), 403, 'not_operator');
    await expectError(await performer.fetch(WATCH, { headers: { Upgrade: 'websocket' } }), 403, 'not_operator');
    await expectError(await (await appointed()).client.fetch(WATCH, { headers: { Upgrade: 'websocket' } }), 403, 'second_factor_required');
    await expectError(await op.client.get(WATCH), 426, 'upgrade_required');
    await expectError(await op.client.fetch('/api/operator/shows/999999/watch', { headers: { Upgrade: 'websocket' } }), 404, 'not_found');
    await expectError(await op.client.get(`${WATCH}/ice?sid=nope`), 422, 'validation_failed', ['sid', 'invalid']);

    // The page (SSR): the watch island for a live show.
    const live = await op.client.get(`/operator/live/${SHOW}/watch`);
    expect(live.status).toBe(200);
    expect(await live.text()).toContain('data-island="ShowWatch"');

    const w = await watch(op.client);
    const welcome = await w.next('welcome');
    expect(welcome.me.id).toMatch(/^watch-/);
    expect(welcome.session).toBeNull();
    expect(welcome.room.viewers).toBe(1);
    // The camera is off: the watcher is told so, and no ICE servers are handed out for it.
    expect((await w.next('video')).state).toBe('camera_off');
    await expectError(await op.client.get(`${WATCH}/ice?sid=${welcome.me.id}`), 403, 'video.not_permitted');
    const audit = await env.DB.prepare("SELECT actor_id FROM audit_log WHERE action = 'show.watched' AND target = ?").bind(`show:${SHOW}`).all();
    expect(audit.results).toEqual([{ actor_id: op.id }]);

    // Public lines reach the watcher; the watcher's own say, typing and commands are refused and reach nobody.
    member.send({ t: 'say', text: 'hello from the member' });
    expect((await w.next('line')).line).toMatchObject({ text: 'hello from the member', from: s.sessionId });
    w.send({ t: 'say', text: 'the operator speaks' });
    expect((await w.next('error')).code).toBe('chat.forbidden');
    w.send({ t: 'typing' });
    expect((await w.next('error')).code).toBe('chat.forbidden');
    w.send({ t: 'kick', sessionId: s.sessionId });
    expect((await w.next('error')).code).toBe('chat.forbidden');
    studio.send({ t: 'say', text: 'after the watcher tried' });
    await member.next('line', (e) => e.line.text === 'after the watcher tried');
    expect(member.events.some((e) => e.t === 'line' && e.line.text === 'the operator speaks')).toBe(false);
    expect(studio.events.some((e) => (e.t === 'line' && e.line.text === 'the operator speaks') || e.t === 'typing')).toBe(false);

    // Unseen: the room's sessions, count and roster hold the member only; the studio heard of nobody else.
    const inRoom = await runInDurableObject(room(), (r: ShowRoom) => ({ sessions: [...r.room.sessions.keys()], viewers: r.viewerCount() }));
    expect(inRoom).toEqual({ sessions: [s.sessionId], viewers: 1 });
    expect((await expectJson<LiveAnswer>(await op.client.get('/api/operator/live'), 200)).data.find((x) => x.id === SHOW)?.viewers).toBe(1);
    const told = studio.events.flatMap((e) => (e.t === 'presence' ? e.participants.map((p) => p.id) : e.t === 'presence-change' ? e.upsert.map((p) => p.id) : []));
    expect(told.some((id) => id.startsWith('watch-'))).toBe(false);
    expect(member.events.some((e) => e.t === 'room' && e.room.viewers !== 1)).toBe(false);

    // Video peer to peer: the camera on, the watcher is told live and offered to by the studio's
    // browser, but the count the studio shows is the member's alone.
    studio.send({ t: 'video', live: true });
    expect((await w.next('video', (e) => e.state === 'live')).epoch).toBeGreaterThan(0);
    const list = await studio.next('video-viewers', (e) => e.viewers.includes(welcome.me.id));
    expect(list.count).toBe(1);
    expect(list.viewers.filter((id) => id !== welcome.me.id)).toEqual([s.sessionId]);
    expect((await expectJson<{ iceServers: unknown[] }>(await op.client.get(`${WATCH}/ice?sid=${welcome.me.id}`), 200)).iceServers).toBeInstanceOf(Array);
    w.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    expect((await studio.next('signal', (e) => e.from === welcome.me.id)).data).toEqual({ kind: 'want' });
    studio.send({ t: 'signal', to: welcome.me.id, data: { kind: 'offer', sdp: 'v=0 watcher-offer' } });
    expect((await w.next('signal')).data).toMatchObject({ kind: 'offer', sdp: 'v=0 watcher-offer' });

    // Never billed: no session, no ledger row for the operator.
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM chat_sessions WHERE user_id = ?').bind(op.id).first('n')).toBe(0);
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger WHERE user_id = ?').bind(op.id).first('n')).toBe(0);

    // The show goes offline: the watch ends; a new one is refused.
    await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
    expect(await w.closed).toBe(4000);
    await expectError(await op.client.fetch(WATCH, { headers: { Upgrade: 'websocket' } }), 409, 'show_not_online');
    expect(await (await op.client.get(`/operator/live/${SHOW}/watch`)).text()).toContain('data-testid="watch-offline"');
    expect(await runInDurableObject(room(), (r: ShowRoom) => r.room.ctx.getWebSockets('watch').filter((x) => x.readyState === 1).length)).toBe(0);
    studio.ws.close(1000);
  });

  it("an operator's stop ends the watch too", async () => {
    const op = await operator();
    const { studio } = await liveShow(SHOW, { flag_free: 1 });
    const w = await watch(op.client);
    await w.next('welcome');
    await expectJson(await op.client.post(`/api/operator/shows/${SHOW}/stop`, { reason: 'A test of the watch ending with a stop.' }), 200);
    expect(await w.closed).toBe(4000);
    studio.ws.close(1000);
  });
});

describe('an operator watching a live show through the SFU', () => {
  // Another show than above: a room builds its video engine once (sfu-helpers.ts).
  const SFU_SHOW = 257;
  const fake = new FakeRealtime();
  useFakeSfu(fake);
  const { publish, pull, closes } = sfuHelpers(fake);

  it("pulls by its own id as the studio's monitor does, in no count the studio gets; a private closes its pull", async () => {
    const op = await operator();
    const { show, studio } = await liveShow(SFU_SHOW, { flag_free: 1 });
    const f = await startOk(new Client(), show.universalId, 'free');
    const free = await viewer(show.id, f);
    await publish(show.id, studio);
    const w = await watch(op.client, `/api/operator/shows/${SFU_SHOW}/watch`);
    const me = (await w.next('welcome')).me.id;
    await w.next('video', (e) => e.state === 'live');
    const pulled = await pull(show.id, w as unknown as RoomSocket, me);
    await pull(show.id, free, f.sessionId);
    // The studio hears of one viewer receiving (the free one), never of the watcher.
    const counts = studio.events.flatMap((e) => (e.t === 'video-viewers' ? [e] : []));
    expect(counts.length).toBeGreaterThan(0);
    for (const e of counts) {
      expect(e.count).toBeLessThanOrEqual(1);
      expect(e.viewers).toEqual([]);
    }
    expect(counts.at(-1)?.count).toBe(1);
    // A private starts: the watcher is told 'private' and its tracks are closed on the SFU.
    const m = await chatMember();
    const p = await startOk(m.client, show.universalId, 'private');
    await viewer(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await w.next('video', (e) => e.state !== 'live')).state).toBe('private');
    await expect.poll(() => closes(pulled)).toEqual([closedAll]);
    w.send({ t: 'signal', to: 'relay', data: { kind: 'want' } });
    expect((await w.next('error')).code).toBe('video.not_permitted');
    w.ws.close(1000);
    for (const s of [free, studio]) s.ws.close(1000);
  });
});
