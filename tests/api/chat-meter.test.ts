import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { open } from '../../src/server/features/chat/room/state';
import { expectJson } from './helpers';
import { chatMember, coinsOf, joinRoom, ledgerRefs, liveShow, pinged, sessionRow, startOk, type RoomSocket } from './chat-helpers';

// What the meter bills (issue 24; shows 171-180, a billed minute is 1 s and the grace 4 s in
// tests): a voyeur's session ends with the private it watches; no minute starts while the
// performer is away and the time away is not billed; an unaccepted request gets no video.

const room = (showId: number) => env.ROOM.get(env.ROOM.idFromName(`show-${showId}`));

/** Waits (polling, with a deadline) until the room holds `check`. */
async function roomUntil(showId: number, check: (r: { perfGoneAt: number | null; performers: number }) => boolean): Promise<{ perfGoneAt: number | null; performers: number }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const state = await runInDurableObject(room(showId), async (instance: ShowRoom) => {
      return { perfGoneAt: instance.room.perfGoneAt, performers: open(instance.room, 'performer').length };
    });
    if (check(state)) return state;
    if (Date.now() > deadline) throw new Error(`room state not reached: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Minutes of a session started at `startedAt` that had begun when the performer left at `gone` (1 s minutes). */
const begunBy = (startedAt: number, gone: number) => Math.floor((gone - startedAt) / 1_000) + 1;

async function member(showId: number, a: { login: string; password: string }): Promise<RoomSocket> {
  const socket = await joinRoom(showId, a.login, a.password);
  await socket.next('welcome');
  return socket;
}

describe('the meter', () => {
  it('a voyeur session ends with the private it watches: told why, off the studio list, no minute after', async () => {
    const { show, studio } = await liveShow(171);
    const a = await chatMember(5000);
    const p = await startOk(a.client, show.universalId, 'private');
    const aRoom = await member(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    await aRoom.next('session', (e) => e.session.minutes === 1);
    const b = await chatMember(5000);
    const v = await startOk(b.client, show.universalId, 'voyeur');
    const bRoom = await member(show.id, v);
    await studio.next('presence-change', (e) => e.upsert.some((x) => x.id === v.sessionId && x.type === 'voyeur'));
    await expectJson(await a.client.post(`/api/chatsession/end/${p.sessionId}`), 200);
    expect(await bRoom.next('ended')).toEqual({ t: 'ended', sessionId: v.sessionId, reason: 'private_ended' });
    expect((await studio.next('ended', (e) => e.sessionId === v.sessionId)).reason).toBe('private_ended');
    await studio.next('presence-change', (e) => e.gone.includes(v.sessionId));
    expect(await sessionRow(v.sessionId)).toMatchObject({ state: 'ended', end_reason: 'private_ended' });
    const paid = await coinsOf(b.id);
    const refs = await ledgerRefs(`chat:${v.sessionId}:`);
    // Late and repeated alarms, and two minutes of real time, charge the voyeur nothing more.
    await runInDurableObject(room(show.id), async (instance: ShowRoom) => {
      await Promise.all([instance.alarm(), instance.alarm()]);
    });
    await new Promise((r) => setTimeout(r, 2_200));
    expect(await coinsOf(b.id)).toBe(paid);
    expect(await ledgerRefs(`chat:${v.sessionId}:`)).toEqual(refs);
    expect(5000 - paid).toBe(refs.length * v.price);
    studio.ws.close(1000);
  });

  it('no minute starts while the performer is away; back within the grace the minutes go on shifted by the absence', async () => {
    const { show, studio, performer } = await liveShow(172);
    const m = await chatMember(5000);
    const p = await startOk(m.client, show.universalId, 'private');
    const mRoom = await member(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    await mRoom.next('session', (e) => e.session.minutes === 1);
    studio.ws.close(1000);
    const { perfGoneAt } = await roomUntil(show.id, (r) => r.performers === 0 && r.perfGoneAt !== null);
    const begun = begunBy((await sessionRow(p.sessionId))!.started_at as number, perfGoneAt!);
    // Two and a half minutes away (inside the four-second grace): nothing is charged for them.
    await new Promise((r) => setTimeout(r, 2_500));
    const away = (await sessionRow(p.sessionId))!;
    expect(away).toMatchObject({ state: 'active' });
    expect(away.minutes).toBeLessThanOrEqual(begun);
    expect(await ledgerRefs(`chat:${p.sessionId}:`)).toHaveLength(away.minutes as number);
    const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
    const back = await joinRoom(show.id, token.login, token.password);
    await back.next('welcome');
    await mRoom.next('session', (e) => e.session.minutes === (away.minutes as number) + 1);
    // Minute 2 starts a minute after minute 1 plus the time away: not at once on the return.
    const stored = await runInDurableObject(room(show.id), async (instance: ShowRoom) => {
      const s = instance.room.sessions.get(p.sessionId)!;
      return { pausedMs: s.pausedMs ?? 0, heldAt: s.heldAt ?? null };
    });
    expect(stored.heldAt).toBeNull();
    expect(stored.pausedMs).toBeGreaterThanOrEqual(2_500);
    await expectJson(await m.client.post(`/api/chatsession/end/${p.sessionId}`), 200);
    const row = (await sessionRow(p.sessionId))!;
    expect(await ledgerRefs(`chat:${p.sessionId}:`)).toHaveLength(row.minutes as number);
    expect(await coinsOf(m.id)).toBe(5000 - (row.minutes as number) * show.price);
    back.ws.close(1000);
  });

  it('the performer gone past the grace: the show goes offline and the session ends without another minute', async () => {
    const { show, studio } = await liveShow(173);
    const m = await chatMember(5000);
    const p = await startOk(m.client, show.universalId, 'private');
    const mRoom = await member(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    await mRoom.next('session', (e) => e.session.minutes === 1);
    studio.ws.close(1000);
    const { perfGoneAt } = await roomUntil(show.id, (r) => r.performers === 0 && r.perfGoneAt !== null);
    const begun = begunBy((await sessionRow(p.sessionId))!.started_at as number, perfGoneAt!);
    const ended = await new Promise<number>((resolve, reject) => {
      mRoom.ws.addEventListener('message', (e) => {
        if (String(e.data).includes('"t":"ended"')) resolve(Date.now());
      });
      setTimeout(() => reject(new Error('no end within 10 s')), 10_000);
    });
    expect(ended).toBeGreaterThan(0);
    const row = (await sessionRow(p.sessionId))!;
    expect(row).toMatchObject({ state: 'ended', end_reason: 'offline', coins: (row.minutes as number) * show.price });
    // Only minutes that had begun before the performer left (the four seconds of grace cost nothing).
    expect(row.minutes).toBeLessThanOrEqual(begun);
    expect(await ledgerRefs(`chat:${p.sessionId}:`)).toHaveLength(row.minutes as number);
    expect(await coinsOf(m.id)).toBe(5000 - (row.minutes as number) * show.price);
  }, 20_000);

  it('a voyeur who starts while the performer is away pays minute 1 only once they are back', async () => {
    const { show, studio, performer } = await liveShow(174);
    const a = await chatMember(5000);
    const p = await startOk(a.client, show.universalId, 'private');
    const aRoom = await member(show.id, p);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    await aRoom.next('session', (e) => e.session.minutes === 1);
    studio.ws.close(1000);
    await roomUntil(show.id, (r) => r.performers === 0 && r.perfGoneAt !== null);
    const b = await chatMember(5000);
    const v = await startOk(b.client, show.universalId, 'voyeur');
    const bRoom = await member(show.id, v);
    expect(await sessionRow(v.sessionId)).toMatchObject({ state: 'active', minutes: 0, coins: 0 });
    // Not paid, so no video either (the preview shows).
    expect((await bRoom.next('video')).state).toBe('waiting');
    expect(await coinsOf(b.id)).toBe(5000);
    const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
    const back = await joinRoom(show.id, token.login, token.password);
    await back.next('welcome');
    await bRoom.next('session', (e) => e.session.minutes === 1);
    expect(await coinsOf(b.id)).toBe(5000 - v.price);
    // Paid, the preview ends with the charge (the studio is back without its camera yet).
    await pinged(bRoom);
    expect(bRoom.events.filter((e) => e.t === 'video').map((e) => e.t === 'video' && e.state)).toEqual(['camera_off']);
    back.ws.close(1000);
  });

  it('a request not accepted yet gets the preview, not the video, on a show without free chat; accepted, it is live', async () => {
    const { show, studio } = await liveShow(175, { flag_free: 0 });
    studio.send({ t: 'video', live: true });
    const m = await chatMember(5000);
    const p = await startOk(m.client, show.universalId, 'private');
    const mRoom = await member(show.id, p);
    expect((await mRoom.next('video')).state).toBe('waiting');
    mRoom.send({ t: 'signal', to: 'performer', data: { kind: 'want' } });
    expect((await mRoom.next('error')).code).toBe('video.not_permitted');
    studio.send({ t: 'signal', to: p.sessionId, data: { kind: 'offer', sdp: 'v=0 not yet' } });
    expect((await studio.next('error')).code).toBe('video.not_permitted');
    expect(studio.events.some((e) => e.t === 'video-viewers' && e.viewers.includes(p.sessionId))).toBe(false);
    expect(await coinsOf(m.id)).toBe(5000);
    studio.send({ t: 'accept', sessionId: p.sessionId });
    expect((await mRoom.next('video')).state).toBe('live');
    await studio.next('video-viewers', (e) => e.viewers.includes(p.sessionId));
    expect(await coinsOf(m.id)).toBe(5000 - show.price);
    for (const s of [mRoom, studio]) s.ws.close(1000);
  });
});
