import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { Client, expectError, expectJson, OPS, req } from './helpers';
import { chatMember, coinsOf, joinRoom, ledgerRefs, liveShow, sessionRow, startOk } from './chat-helpers';

// Per-minute billing in the room (shows 161-190; a billed minute is 1 s in tests): minute 1 at
// accept, each next at its start from the stored start, warn and no-coins end, replays.

const room = (showId: number) => env.ROOM.get(env.ROOM.idFromName(`show-${showId}`));

describe('chat billing', () => {
  it('a private: pending until accepted, minute 1 charged at once, minute 2 at its start; free chatters see the mode', async () => {
    const { show, studio } = await liveShow(161);
    const watcher = await startOk(new Client(), show.universalId, 'free');
    const free = await joinRoom(show.id, watcher.login, watcher.password);
    await free.next('welcome');
    const m = await chatMember(1000);
    const s = await startOk(m.client, show.universalId, 'private');
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'pending', minutes: 0, coins: 0 });
    const member = await joinRoom(show.id, s.login, s.password);
    expect((await member.next('welcome')).session).toMatchObject({ state: 'pending', minutes: 0 });
    expect(await coinsOf(m.id)).toBe(1000);
    studio.send({ t: 'accept', sessionId: s.sessionId });
    const first = await member.next('session', (e) => e.session.minutes === 1);
    expect(first.session).toMatchObject({ state: 'active', price: show.price, coins: show.price, balance: 1000 - show.price });
    expect((await free.next('room', (e) => e.room.mode === 'private')).room.mode).toBe('private');
    const second = await member.next('session', (e) => e.session.minutes === 2);
    expect(second.session.coins).toBe(2 * show.price);
    expect(await ledgerRefs(`chat:${s.sessionId}:`)).toEqual(expect.arrayContaining([`chat:${s.sessionId}:1`, `chat:${s.sessionId}:2`]));
    const end = await expectJson<{ session: { state: string; ended_reason: string; minutes: number; coins: number } }>(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    expect(end.session).toMatchObject({ state: 'ended', ended_reason: 'member' });
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('member');
    await free.next('room', (e) => e.room.mode === 'free');
    const row = (await sessionRow(s.sessionId))!;
    const refs = await ledgerRefs(`chat:${s.sessionId}:`);
    expect(refs.length).toBe(row.minutes);
    expect(row.coins).toBe((row.minutes as number) * show.price);
    expect(await coinsOf(m.id)).toBe(1000 - (row.coins as number));
    for (const x of [free, member, studio]) x.ws.close(1000);
  });

  it('coins for one minute: both sides get the warning, then the session ends with no_coins and never goes below zero', async () => {
    const { show, studio } = await liveShow(162);
    const m = await chatMember(show.price);
    const s = await startOk(m.client, show.universalId, 'private');
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    const warn = await member.next('warn');
    expect(warn).toMatchObject({ code: 'coins_low', sessionId: s.sessionId });
    expect(warn.seconds).toBeLessThanOrEqual(1);
    expect((await studio.next('warn')).sessionId).toBe(s.sessionId);
    expect(await member.next('ended')).toEqual({ t: 'ended', sessionId: s.sessionId, reason: 'no_coins' });
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('no_coins');
    expect(await coinsOf(m.id)).toBe(0);
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'ended', end_reason: 'no_coins', minutes: 1, coins: show.price });
    studio.ws.close(1000);
  });

  it('an operator taking the show offline ends its chats at once (paid and free) and the performer learns it', async () => {
    const { show, studio } = await liveShow(167);
    const watcher = await startOk(new Client(), show.universalId, 'free');
    const free = await joinRoom(show.id, watcher.login, watcher.password);
    await free.next('welcome');
    const m = await chatMember(1000);
    const s = await startOk(m.client, show.universalId, 'private');
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await member.next('session', (e) => e.session.minutes === 1);
    const res = await req(`/api/ops/shows/${show.id}/status`, { method: 'POST', headers: OPS, body: JSON.stringify({ online: false }) });
    expect(res.status).toBe(200);
    expect(await member.next('ended')).toEqual({ t: 'ended', sessionId: s.sessionId, reason: 'offline' });
    expect(await free.next('ended')).toEqual({ t: 'ended', sessionId: watcher.sessionId, reason: 'offline' });
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('offline');
    const row = (await sessionRow(s.sessionId))!;
    expect(row).toMatchObject({ state: 'ended', end_reason: 'offline' });
    // No minute is charged after the show went offline.
    const coins = await coinsOf(m.id);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await coinsOf(m.id)).toBe(coins);
    for (const x of [free, studio]) x.ws.close(1000);
  });

  it('a replayed or repeated alarm never charges a minute twice', async () => {
    const { show, studio } = await liveShow(163);
    const m = await chatMember(5000);
    const s = await startOk(m.client, show.universalId, 'private');
    const member = await joinRoom(show.id, s.login, s.password);
    await member.next('welcome');
    studio.send({ t: 'accept', sessionId: s.sessionId });
    await member.next('session', (e) => e.session.minutes === 2);
    await runInDurableObject(room(show.id), async (instance: ShowRoom) => {
      const sessions = instance.room.sessions;
      // The room forgets it charged minute 2 (a lost write, a replay): the ledger's reference refuses it again.
      sessions.get(s.sessionId)!.minutes = 1;
      await Promise.all([instance.alarm(), instance.alarm(), instance.alarm()]);
      await instance.alarm();
    });
    await expectJson(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200);
    const row = (await sessionRow(s.sessionId))!;
    const refs = await ledgerRefs(`chat:${s.sessionId}:`);
    expect(new Set(refs).size).toBe(refs.length);
    expect(refs.sort()).toEqual(Array.from({ length: row.minutes as number }, (_, i) => `chat:${s.sessionId}:${i + 1}`).sort());
    expect(row.coins).toBe((row.minutes as number) * show.price);
    expect(await coinsOf(m.id)).toBe(5000 - (row.minutes as number) * show.price);
    studio.ws.close(1000);
  });

  it('the performer declines a request: ended, nothing charged, the member asks again after a pause; exclusive ends the voyeurs', async () => {
    const { show, studio } = await liveShow(164);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'private');
    studio.send({ t: 'decline', sessionId: s.sessionId });
    expect((await studio.next('ended', (e) => e.sessionId === s.sessionId)).reason).toBe('declined');
    expect(await coinsOf(m.id)).toBe(1000);
    // Declined, the member asks again only after a pause (the request held the show's one private
    // place), also in a burst; the wait is told. Another member may ask at once.
    const again = await Promise.all(Array.from({ length: 5 }, () => m.client.post(`/api/chatsession/${show.universalId}`, { type: 'private' })));
    for (const res of again) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(100);
      expect(await res.json()).toEqual({ message: 'chat.request_pause' });
    }
    // A request the member withdrew is no reason to wait.
    const other = await chatMember();
    const withdrawn = await startOk(other.client, show.universalId, 'private');
    await expectJson(await other.client.post(`/api/chatsession/end/${withdrawn.sessionId}`), 200);
    const asked = await startOk(other.client, show.universalId, 'private');
    studio.send({ t: 'decline', sessionId: asked.sessionId });
    await studio.next('ended', (e) => e.sessionId === asked.sessionId);
    const voyeur = await chatMember();
    const v = await startOk(voyeur.client, show.universalId, 'voyeur');
    // A voyeur pays minute 1 at once, at the documented share of the private price.
    expect(await sessionRow(v.sessionId)).toMatchObject({ state: 'active', minutes: 1, coins: v.price });
    const vRoom = await joinRoom(show.id, v.login, v.password);
    await vRoom.next('welcome');
    const third = await chatMember();
    const ex = await startOk(third.client, show.universalId, 'exclusive');
    studio.send({ t: 'accept', sessionId: ex.sessionId });
    expect((await vRoom.next('ended')).reason).toBe('exclusive');
    studio.ws.close(1000);
  });

  it('a session whose member socket never arrives, or is gone, ends by itself after the grace period', async () => {
    const { show, studio } = await liveShow(165);
    const never = await startOk(new Client(), show.universalId, 'free');
    const gone = await startOk(new Client(), show.universalId, 'free');
    const g = await joinRoom(show.id, gone.login, gone.password);
    await g.next('welcome');
    g.ws.close(1000);
    expect((await studio.next('ended', (e) => e.sessionId === never.sessionId)).reason).toBe('timeout');
    expect((await studio.next('ended', (e) => e.sessionId === gone.sessionId)).reason).toBe('timeout');
    expect(await sessionRow(never.sessionId)).toMatchObject({ state: 'ended', end_reason: 'timeout' });
    studio.ws.close(1000);
  }, 15_000);
});

describe('chat session end', () => {
  it("only the owner ends a session: another member's id is 404; the beacon proves ownership with the room token", async () => {
    const { show, studio } = await liveShow(166);
    const m = await chatMember();
    const s = await startOk(m.client, show.universalId, 'free');
    const other = await chatMember();
    await expectError(await other.client.post(`/api/chatsession/end/${s.sessionId}`), 404, 'not_found');
    await expectError(await new Client().post(`/api/chatsession/end/${s.sessionId}`), 404, 'not_found');
    // Without the CSRF header and without a token: refused; with a wrong CSRF header: 419.
    await expectError(await other.client.post(`/api/chatsession/end/${s.sessionId}`, undefined, { csrf: false }), 404, 'not_found');
    await expectError(await m.client.post(`/api/chatsession/end/${s.sessionId}`, undefined, { headers: { 'X-XSRF-TOKEN': 'wrong' }, csrf: false }), 419, 'csrf_token_mismatch');
    // Another session's token does not end this one.
    const s2 = await startOk(other.client, show.universalId, 'free');
    await expectError(await other.client.post(`/api/chatsession/end/${s.sessionId}`, JSON.stringify({ password: s2.password }), { csrf: false, contentType: 'text/plain;charset=UTF-8' }), 404, 'not_found');
    expect((await sessionRow(s.sessionId))!.state).toBe('active');
    // The beacon: text/plain, no cookies, no CSRF header, the session's own token.
    const beacon = await new Client().post(`/api/chatsession/end/${s.sessionId}`, JSON.stringify({ password: s.password }), { csrf: false, contentType: 'text/plain;charset=UTF-8' });
    expect((await expectJson<{ session: { state: string } }>(beacon, 200)).session.state).toBe('ended');
    expect(await sessionRow(s.sessionId)).toMatchObject({ state: 'ended', end_reason: 'member' });
    // Ending again answers the ended session.
    expect((await expectJson<{ session: { state: string } }>(await m.client.post(`/api/chatsession/end/${s.sessionId}`), 200)).session.state).toBe('ended');
    await expectError(await m.client.post('/api/chatsession/end/x'), 404, 'not_found');
    studio.ws.close(1000);
  });
});
