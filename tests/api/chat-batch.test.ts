import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { releaseFreeMinutes, reserveFreeChunks } from '../../src/server/features/chat/chat.repo';
import { spendMany } from '../../src/server/lib/ledger-many.repo';
import { shardStub } from '../../src/server/features/chat/room/fanout';
import type { RoomShard } from '../../src/server/features/chat/room/shard';
import { acceptSession, tick } from '../../src/server/features/chat/room/meter';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { meterTestHooks, pushNow } from '../../src/server/features/chat/room/state';
import { FREE_CHAT_SECONDS_PER_DAY, type ChatSessionAnswer } from '../../src/shared/chat';
import { Client } from './helpers';
import { addCoins, chatMember, ledgerRefs, liveShow, pinged, sessionRow, startOk, viewer, type ShowInfo } from './chat-helpers';
import { booksHold } from './ledger-books';

// The minute tick charges the paid minutes of a whole room in a few D1 batches (meter.ts
// chargeMany, lib/ledger-many.repo.ts spendMany), keyed chat:{session}:{minute} as before: one
// member who cannot pay stops nobody else, and a tick run again after its writes to the room's
// storage were lost charges nothing twice. On a clock of the test's own (a day ahead, so the
// room's own alarms never fire in between).

const MINUTE = 1_000; // CHAT_MINUTE_MS of vitest.workers.config.ts
const SHOW = 258;
const room = () => env.ROOM.get(env.ROOM.idFromName(`show-${SHOW}`));

let now = Date.now() + 86_400_000;
meterTestHooks.now = () => now;
afterAll(() => {
  meterTestHooks.now = undefined;
});

/** The member's page joined the show's room and its socket went: resolves once the room has marked the session gone. */
async function socketGone(showId: number, a: ChatSessionAnswer): Promise<void> {
  const sock = await viewer(showId, a);
  sock.ws.close(1000);
  const showRoom = env.ROOM.get(env.ROOM.idFromName(`show-${showId}`));
  const goneAt = () => runInDurableObject(showRoom, (instance: ShowRoom) => instance.room.sessions.get(a.sessionId)!.goneAt);
  for (let i = 0; i < 50 && (await goneAt()) === null; i++) await new Promise((done) => setTimeout(done, 50));
}

const balance = async (id: number) => (await env.DB.prepare('SELECT coins FROM users WHERE id = ?').bind(id).first<{ coins: number }>())!.coins;

describe('the minute tick in batches', () => {
  it("books every session's due minute in one tick (paid and free); a member who cannot pay, or a visitor whose free minutes are spent, ends alone; the tick replayed charges nothing twice", async () => {
    const { show } = await liveShow(SHOW);
    // Free viewers first; one of them has used all but its first minute of the day's allowance.
    const frees = [];
    for (let i = 0; i < 4; i++) frees.push(await startOk(new Client(), show.universalId, 'free', `Free${i}`));
    const spent = frees[0];
    const visitor = await runInDurableObject(room(), (instance: ShowRoom) => instance.room.sessions.get(spent.sessionId)!.visitor);
    await env.DB.prepare('UPDATE free_chat_usage SET minutes = ? WHERE who = ?').bind(FREE_CHAT_SECONDS_PER_DAY / 60, `v:${visitor}`).run();
    const payer = await chatMember(10_000);
    const p = await startOk(payer.client, show.universalId, 'private');
    await runInDurableObject(room(), async (instance: ShowRoom) => {
      await acceptSession(instance.room, instance.room.sessions.get(p.sessionId)!);
    });
    const voyeurs = await Promise.all(Array.from({ length: 6 }, () => chatMember(10_000)));
    const vs: { sessionId: string }[] = [];
    for (const m of voyeurs) vs.push(await startOk(m.client, show.universalId, 'voyeur'));
    // One more voyeur holds exactly minute 1 (paid at the start): minute 2 it cannot pay.
    const poorMember = await chatMember(0);
    const price = await runInDurableObject(room(), async (instance: ShowRoom) => [...instance.room.sessions.values()].find((s) => s.type === 'voyeur')!.price);
    await addCoins(poorMember.id, price);
    const poor = await startOk(poorMember.client, show.universalId, 'voyeur');
    expect(await balance(poorMember.id)).toBe(0);

    now += MINUTE + 10;
    await runInDurableObject(room(), (instance: ShowRoom) => tick(instance.room));
    for (const v of vs) expect(await ledgerRefs(`chat:${v.sessionId}:`)).toEqual([`chat:${v.sessionId}:1`, `chat:${v.sessionId}:2`]);
    expect(await ledgerRefs(`chat:${p.sessionId}:`)).toEqual([`chat:${p.sessionId}:1`, `chat:${p.sessionId}:2`]);
    expect(await ledgerRefs(`chat:${poor.sessionId}:`)).toEqual([`chat:${poor.sessionId}:1`]);
    expect(await sessionRow(poor.sessionId)).toMatchObject({ state: 'ended', end_reason: 'no_coins', minutes: 1 });
    for (const v of vs) expect(await sessionRow(v.sessionId)).toMatchObject({ state: 'active', minutes: 2, coins: 2 * price });
    expect(await sessionRow(spent.sessionId)).toMatchObject({ state: 'ended', end_reason: 'free_expired' });
    for (const f of frees.slice(1)) expect(await sessionRow(f.sessionId)).toMatchObject({ state: 'active', minutes: 2, coins: 0 });

    // The storage writes of that tick were lost (the object restarted before they landed): the
    // room still thinks minute 1, and the tick runs again, twice at once.
    const balances = await Promise.all(voyeurs.map((m) => balance(m.id)));
    await runInDurableObject(room(), async (instance: ShowRoom) => {
      for (const v of vs) instance.room.sessions.get(v.sessionId)!.minutes = 1;
      await Promise.all([tick(instance.room), tick(instance.room)]);
      for (const v of vs) expect(instance.room.sessions.get(v.sessionId)).toMatchObject({ minutes: 2 });
    });
    expect(await Promise.all(voyeurs.map((m) => balance(m.id)))).toEqual(balances);
    for (const v of vs) {
      expect(await ledgerRefs(`chat:${v.sessionId}:`)).toHaveLength(2);
      expect(await sessionRow(v.sessionId)).toMatchObject({ minutes: 2, coins: 2 * price });
    }

    // Free minutes come out of the allowance five at a time: minute 2 reserved minutes 2-6 (the
    // start reserved minute 1), minute 3 costs no D1 write, and the session's end gives back what
    // it did not use.
    const free = frees[1];
    const who = `v:${await runInDurableObject(room(), (instance: ShowRoom) => instance.room.sessions.get(free.sessionId)!.visitor)}`;
    const usage = async () => (await env.DB.prepare('SELECT minutes FROM free_chat_usage WHERE who = ?').bind(who).first<{ minutes: number }>())!.minutes;
    expect(await usage()).toBe(6);
    now += MINUTE;
    await runInDurableObject(room(), (instance: ShowRoom) => tick(instance.room));
    expect(await runInDurableObject(room(), (instance: ShowRoom) => instance.room.sessions.get(free.sessionId)!.minutes)).toBe(3);
    expect(await usage()).toBe(6);
    expect(await sessionRow(free.sessionId)).toMatchObject({ minutes: 2 });
    await room().end(free.sessionId, 'member');
    expect(await sessionRow(free.sessionId)).toMatchObject({ state: 'ended', minutes: 3 });
    expect(await usage()).toBe(3);
    await booksHold();
  });

  it('spendMany: each payment on its own (a replay or an empty purse refuses only itself), in chunks, the balances after', async () => {
    const members = await Promise.all(Array.from({ length: 3 }, () => chatMember(100)));
    const broke = await chatMember(0);
    const pay = (userId: number, ref: string, amount = 30) => ({ userId, showId: SHOW, amount, reason: 'chat' as const, ref });
    const items = [...members.map((m, i) => pay(m.id, `batch-test:${i}`)), pay(broke.id, 'batch-test:broke'), pay(members[0].id, 'batch-test:0b', 80)];
    const first = await spendMany(env.DB, items);
    expect(first.map((r) => (r.ok ? 'ok' : r.error))).toEqual(['ok', 'ok', 'ok', 'insufficient_funds', 'insufficient_funds']);
    expect(first[0]).toEqual({ ok: true, coins: 70 });
    const again = await spendMany(env.DB, items);
    expect(again.map((r) => (r.ok ? 'ok' : r.error))).toEqual(['duplicate', 'duplicate', 'duplicate', 'insufficient_funds', 'insufficient_funds']);
    expect(await Promise.all(members.map((m) => balance(m.id)))).toEqual([70, 70, 70]);
    // 250 payments of one member: three chunks, every one written once.
    const rich = await chatMember(1_000);
    const many = await spendMany(env.DB, Array.from({ length: 250 }, (_, i) => pay(rich.id, `batch-test:rich:${i}`, 4)));
    expect(many.filter((r) => r.ok)).toHaveLength(250);
    expect(await balance(rich.id)).toBe(0);
    await booksHold();
  });

  it("one visitor's free minutes in three rooms ticking at once: the day's allowance is never exceeded; what was reserved and not used goes back", async () => {
    const showIds = [156, 157, 158];
    const rooms = showIds.map((id) => env.ROOM.get(env.ROOM.idFromName(`show-${id}`)));
    const shows: ShowInfo[] = [];
    for (const id of showIds) shows.push((await liveShow(id)).show);
    // One visitor (one client, one cookie) watches the three shows for free; each start took minute 1.
    const guest = new Client();
    const sessions: ChatSessionAnswer[] = [];
    for (const show of shows) sessions.push(await startOk(guest, show.universalId, 'free', 'Wanderer'));
    const visitor = await runInDurableObject(rooms[0], (instance: ShowRoom) => instance.room.sessions.get(sessions[0].sessionId)!.visitor);
    const who = `v:${visitor}`;
    const usage = async () => (await env.DB.prepare('SELECT minutes FROM free_chat_usage WHERE who = ?').bind(who).first<{ minutes: number }>())!.minutes;
    const limit = FREE_CHAT_SECONDS_PER_DAY / 60;
    expect(await usage()).toBe(3);
    // Three minutes of the day are left; all three rooms want minute 2 (a chunk of five each) at once.
    await env.DB.prepare('UPDATE free_chat_usage SET minutes = ? WHERE who = ?').bind(limit - 3, who).run();
    now += MINUTE + 10;
    await Promise.all(rooms.map((r) => runInDurableObject(r, (instance: ShowRoom) => tick(instance.room))));
    expect(await usage()).toBe(limit);
    const states = await Promise.all(
      rooms.map((r, i) =>
        runInDurableObject(r, (instance: ShowRoom) => {
          const s = instance.room.sessions.get(sessions[i].sessionId);
          return s ? { minutes: s.minutes, held: s.freeHeld ?? 0 } : null;
        }),
      ),
    );
    // Exactly one room got the three minutes left (minute 2 used, two held); the others ended.
    const running = states.filter((x) => x !== null);
    expect(running).toEqual([{ minutes: 2, held: 2 }]);
    const rows = await Promise.all(sessions.map((x) => sessionRow(x.sessionId)));
    expect(rows.filter((r) => r?.end_reason === 'free_expired')).toHaveLength(2);
    // Its end gives the two held minutes back.
    const live = sessions[states.findIndex((x) => x !== null)];
    await rooms[states.findIndex((x) => x !== null)].end(live.sessionId, 'member');
    expect(await usage()).toBe(limit - 2);
    await booksHold();
  });

  it('reserveFreeChunks: forty reservations at once for one visitor grant exactly the day\'s allowance, no more', async () => {
    const who = `v:burst-${crypto.randomUUID()}`;
    const other = `v:burst-${crypto.randomUUID()}`;
    const day = 20_000;
    const got = await Promise.all(Array.from({ length: 40 }, (_, i) => reserveFreeChunks(env.DB, i % 4 === 0 ? [who, other] : [who], day, 15, 5)));
    expect(got.reduce((sum, g) => sum + g[0], 0)).toBe(15);
    expect(got.filter((g) => g.length === 2).reduce((sum, g) => sum + g[1], 0)).toBe(15);
    const row = (w: string) => env.DB.prepare('SELECT minutes FROM free_chat_usage WHERE who = ? AND day = ?').bind(w, day).first<{ minutes: number }>();
    expect(await row(who)).toEqual({ minutes: 15 });
    // Forty releases at once never take the day below nothing.
    await Promise.all(Array.from({ length: 40 }, () => releaseFreeMinutes(env.DB, who, day, 1)));
    expect(await row(who)).toEqual({ minutes: 0 });
  });

  it('a paying viewer who is away is not billed: the minutes wait from the moment the socket went (closed, or lost with its shard) and go on when they are back', async () => {
    const { show } = await liveShow(159);
    const r = () => env.ROOM.get(env.ROOM.idFromName(`show-${show.id}`));
    const payer = await chatMember(10_000);
    const p = await startOk(payer.client, show.universalId, 'private');
    const at0 = now;
    await runInDurableObject(r(), (instance: ShowRoom) => acceptSession(instance.room, instance.room.sessions.get(p.sessionId)!));
    const session = () => runInDurableObject(r(), (instance: ShowRoom) => ({ ...instance.room.sessions.get(p.sessionId)! }));
    const refs = () => ledgerRefs(`chat:${p.sessionId}:`);
    const minuteRefs = (n: number) => Array.from({ length: n }, (_, i) => `chat:${p.sessionId}:${i + 1}`);
    const tickNow = () => runInDurableObject(r(), (instance: ShowRoom) => tick(instance.room));
    const awayFrom = async () => {
      for (let i = 0; i < 50 && (await session()).goneAt === null; i++) await new Promise((done) => setTimeout(done, 50));
      return session();
    };
    let sock = await viewer(show.id, p);
    now = at0 + MINUTE + 10;
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(2));

    // The page closes its socket: from then on the session is held (3 minutes pass, within the grace).
    sock.ws.close(1000);
    const away = await awayFrom();
    expect(away).toMatchObject({ state: 'active', goneAt: at0 + MINUTE + 10, heldAt: at0 + MINUTE + 10 });
    now = at0 + 4 * MINUTE + 10;
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(2));
    // Back: the schedule moved by the 3 minutes away; minute 3 starts 2 minutes after the (shifted) start.
    sock = await viewer(show.id, p);
    expect(await session()).toMatchObject({ goneAt: null, heldAt: null, pausedMs: 3 * MINUTE });
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(2));
    now = at0 + 5 * MINUTE + 10;
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(3));

    // Its shard restarts: the socket is gone without a goodbye; the next tick finds it missing and holds the minutes.
    const shard = (await session()).shard ?? 0;
    await runInDurableObject(shardStub(env, show.id, shard), (_instance: RoomShard, state) => void setTimeout(() => state.abort('restart'), 0));
    await sock.closed;
    now = at0 + 5 * MINUTE + 500;
    await tickNow();
    expect(await session()).toMatchObject({ state: 'active', goneAt: at0 + 5 * MINUTE + 500, heldAt: at0 + 5 * MINUTE + 500 });
    now = at0 + 8 * MINUTE;
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(3));
    // Back after 2.5 minutes away: minute 4 starts at 3 minutes plus 5.5 away, not before.
    sock = await viewer(show.id, p);
    expect(await session()).toMatchObject({ goneAt: null, heldAt: null, pausedMs: 5.5 * MINUTE });
    now = at0 + 8.4 * MINUTE;
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(3));
    now = at0 + 8.6 * MINUTE;
    await tickNow();
    expect(await refs()).toEqual(minuteRefs(4));
    expect(await sessionRow(p.sessionId)).toMatchObject({ state: 'active', minutes: 4 });
    sock.ws.close(1000);
    await r().end(p.sessionId, 'member');
    await booksHold();
  });

  it('a request accepted while its member is away starts held: minute 1 is charged when they are back, nothing if they never come', async () => {
    const { show, studio } = await liveShow(169);
    studio.send({ t: 'video', live: true });
    const r = () => env.ROOM.get(env.ROOM.idFromName(`show-${show.id}`));
    const refsOf = (id: string) => ledgerRefs(`chat:${id}:`);
    const session = (id: string) => runInDurableObject(r(), (instance: ShowRoom) => ({ ...instance.room.sessions.get(id)! }));
    const accept = (id: string) => runInDurableObject(r(), (instance: ShowRoom) => acceptSession(instance.room, instance.room.sessions.get(id)!));
    const tickNow = () => runInDurableObject(r(), (instance: ShowRoom) => tick(instance.room));
    const payer = await chatMember(10_000);
    const p = await startOk(payer.client, show.universalId, 'private');
    // The member's page was there, then its socket went while the request waited.
    await socketGone(show.id, p);
    const at0 = now;
    expect(await accept(p.sessionId)).toBe(true);
    expect(await session(p.sessionId)).toMatchObject({ state: 'active', startedAt: at0, heldAt: at0, minutes: 0 });
    expect(await refsOf(p.sessionId)).toEqual([]);
    now = at0 + 2 * MINUTE;
    await tickNow();
    expect(await refsOf(p.sessionId)).toEqual([]);
    // Back 2 minutes later: minute 1 now, minute 2 a minute after.
    const back = await viewer(show.id, p);
    expect(await session(p.sessionId)).toMatchObject({ heldAt: null, pausedMs: 2 * MINUTE });
    expect((await back.next('video')).state).toBe('waiting');
    // The room's push for the join has gone out before the minute is charged (on a busy machine the charge lands after it).
    await runInDurableObject(r(), (instance: ShowRoom) => pushNow(instance.room));
    await tickNow();
    expect(await refsOf(p.sessionId)).toEqual([`chat:${p.sessionId}:1`]);
    // Minute 1 paid by the tick: the member is told its video is live with it, not at the room's next change.
    await pinged(back);
    expect(back.events.filter((e) => e.t === 'video').map((e) => e.t === 'video' && e.state)).toEqual(['live']);
    now = at0 + 3 * MINUTE + 10;
    await tickNow();
    expect(await refsOf(p.sessionId)).toEqual([`chat:${p.sessionId}:1`, `chat:${p.sessionId}:2`]);
    back.ws.close(1000);
    await r().end(p.sessionId, 'member');

    // Another member away at the accept who never comes back: ended after the grace, nothing charged.
    const gone = await chatMember(10_000);
    const q = await startOk(gone.client, show.universalId, 'private');
    await socketGone(show.id, q);
    const goneAt = (await session(q.sessionId)).goneAt!;
    expect(await accept(q.sessionId)).toBe(true);
    now = goneAt + 5 * MINUTE;
    await tickNow();
    expect(await sessionRow(q.sessionId)).toMatchObject({ state: 'ended', end_reason: 'timeout', minutes: 0, coins: 0 });
    expect(await refsOf(q.sessionId)).toEqual([]);
    expect(await balance(gone.id)).toBe(10_000);
    await booksHold();
  });
  it('a viewer admitted whose socket never reaches its shard is not billed: the census before the next charge finds it missing', async () => {
    const { show } = await liveShow(177);
    const r = () => env.ROOM.get(env.ROOM.idFromName(`show-${show.id}`));
    const session = (id: string) => runInDurableObject(r(), (instance: ShowRoom) => ({ ...instance.room.sessions.get(id)! }));
    const payer = await chatMember(10_000);
    const p = await startOk(payer.client, show.universalId, 'private');
    await socketGone(show.id, p);
    const at0 = now;
    expect(await runInDurableObject(r(), (instance: ShowRoom) => acceptSession(instance.room, instance.room.sessions.get(p.sessionId)!))).toBe(true);
    // The worker's admission counts the viewer as back; its socket never reaches the shard.
    expect(await r().admit({ role: 'member', sub: p.sessionId, uid: payer.id, login: null })).not.toBeNull();
    expect(await session(p.sessionId)).toMatchObject({ goneAt: null, heldAt: null });
    now = at0 + 2 * MINUTE;
    await runInDurableObject(r(), (instance: ShowRoom) => tick(instance.room));
    expect(await ledgerRefs(`chat:${p.sessionId}:`)).toEqual([]);
    expect(await session(p.sessionId)).toMatchObject({ minutes: 0, goneAt: now, heldAt: now });
    await r().end(p.sessionId, 'member');
    expect(await balance(payer.id)).toBe(10_000);
    await booksHold();
  });
});
