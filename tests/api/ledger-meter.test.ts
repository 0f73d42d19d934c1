import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { meterTestHooks, open } from '../../src/server/features/chat/room/state';
import { acceptSession } from '../../src/server/features/chat/room/meter';
import type { RoomSession } from '../../src/server/features/chat/room/logic';
import { Client, expectJson } from './helpers';
import { chatMember, joinRoom, liveShow, startChat, type RoomSocket } from './chat-helpers';
import { booksHold } from './ledger-books';

// The meter under random interleavings (issue 24): real rooms, real sockets and the real ledger,
// driven on a clock of the test's own (meterTestHooks; a day ahead of the wall clock, so the
// rooms' own alarms never fire during the run and every alarm is one the test fires: late, or
// twice at once). Sessions of each type start, privates and exclusives are accepted and end,
// voyeurs join during a private, the performer leaves and comes back (inside and past the
// grace), members leave. After each run every charged minute must have started (by the rules:
// a minute needs a minute of the performer's presence after the last, and the performer there)
// while its session, and for a voyeur the private it watched, ran, and before it was charged;
// and the books must hold (booksHold in ledger-books.ts, as in ledger.test.ts).

const MINUTE = 1_000; // CHAT_MINUTE_MS of vitest.workers.config.ts
const GRACE = 4_000; // CHAT_GRACE_MS
const SHOW = 176;
const room = () => env.ROOM.get(env.ROOM.idFromName(`show-${SHOW}`));

let now = Date.now() + 86_400_000;
meterTestHooks.now = () => now;
afterAll(() => {
  meterTestHooks.now = undefined;
});


async function chargedRefs(): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT ref FROM ledger WHERE ref LIKE 'chat:%' AND ref NOT LIKE '%:house' AND ref NOT LIKE '%:paid'").all<{ ref: string }>();
  return results.map((r) => r.ref);
}

interface RoomView {
  online: boolean;
  performers: number;
  perfGoneAt: number | null;
  running: { id: string; type: string } | null;
  sessions: Pick<RoomSession, 'id' | 'type' | 'state'>[];
}

function view(): Promise<RoomView> {
  return runInDurableObject(room(), async (instance: ShowRoom) => {
    const r = instance.room;
    const list = [...r.sessions.values()];
    const running = list.find((s) => s.state === 'active' && (s.type === 'private' || s.type === 'exclusive')) ?? null;
    return {
      online: !!r.show?.online,
      performers: open(r, 'performer').length,
      perfGoneAt: r.perfGoneAt,
      running: running && { id: running.id, type: running.type },
      sessions: list.map((s) => ({ id: s.id, type: s.type, state: s.state })),
    };
  });
}

async function until(check: (v: RoomView) => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await view();
    if (check(v)) return;
    if (Date.now() > deadline) throw new Error(`room state not reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** When minute m of a session started at `start` begins: after (m-1) minutes of the performer's presence, at an instant they are there. */
function minuteBegins(start: number, m: number, away: { from: number; to: number | null }[]): number | null {
  let need = (m - 1) * MINUTE;
  let t = start;
  for (const a of [...away].sort((x, y) => x.from - y.from)) {
    if (a.to !== null && a.to <= t) continue;
    if (a.from > t) {
      if (need < a.from - t) return t + need;
      need -= a.from - t;
    }
    if (a.to === null) return null;
    t = a.to;
  }
  return t + need;
}

const op = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('private' as const, 'exclusive' as const, 'voyeur' as const, 'free' as const), who: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('accept' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('endRunning' as const, 'memberEnds' as const, 'memberLeaves' as const), pick: fc.nat(9) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('performerLeaves' as const, 'performerBack' as const) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2 * GRACE }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('alarm' as const), twice: fc.boolean() }) },
);

describe('the meter under random interleavings', () => {
  it('charges only minutes that started with the performer there and the session (and its private) running; the books hold', async () => {
    let runs = 0;
    let charged = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 15, maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 3, maxLength: 3 }), async (ops, wallets) => {
        runs++;
        const { show, performer, studio: first } = await liveShow(SHOW);
        // Three members with a few minutes' coins each (running out ends their chats).
        const members = await Promise.all(wallets.map((w) => chatMember(show.price * w)));
        let studio: RoomSocket | null = first;
        const away: { from: number; to: number | null }[] = [];
        const sessions = new Map<string, { type: string; price: number; client: Client; socket: RoomSocket | null; startedAt: number | null }>();
        const seen = new Set(await chargedRefs());
        const chargedAt: { ref: string; at: number }[] = [];
        const step = async (run: () => Promise<void>) => {
          now += 1; // every step at an instant of its own
          await run();
          for (const ref of await chargedRefs()) {
            if (seen.has(ref)) continue;
            seen.add(ref);
            chargedAt.push({ ref, at: now });
          }
        };
        for (const o of ops) {
          await step(async () => {
            const v = await view();
            switch (o.kind) {
              case 'private':
              case 'exclusive':
              case 'voyeur':
              case 'free': {
                if (!v.online) return;
                if (o.kind === 'voyeur' && v.running?.type !== 'private') return; // voyeurs watch a private
                const m = o.kind === 'free' ? null : members[o.who];
                const client = m?.client ?? new Client();
                const res = await startChat(client, show.universalId, o.kind);
                if (res.status !== 200) return expect([422, 429]).toContain(res.status);
                const a = await expectJson<{ sessionId: string; login: string; password: string; price: number }>(res, 200);
                const socket = await joinRoom(show.id, a.login, a.password);
                await socket.next('welcome');
                const active = o.kind === 'voyeur' || o.kind === 'free';
                sessions.set(a.sessionId, { type: o.kind, price: a.price, client, socket, startedAt: active ? now : null });
                return;
              }
              case 'accept': {
                const pending = v.sessions.find((s) => s.state === 'pending');
                if (!pending || v.performers === 0) return;
                await runInDurableObject(room(), async (instance: ShowRoom) => {
                  const s = instance.room.sessions.get(pending.id);
                  if (s) await acceptSession(instance.room, s);
                });
                const s = sessions.get(pending.id);
                if (s) s.startedAt = now;
                return;
              }
              case 'endRunning':
              case 'memberEnds':
              case 'memberLeaves': {
                const open = v.sessions.filter((s) => s.state !== 'ended');
                const target = o.kind === 'endRunning' ? v.running : open[o.pick % Math.max(1, open.length)];
                const s = target && sessions.get(target.id);
                if (!target || !s) return;
                if (o.kind === 'memberLeaves') {
                  // The member's tab goes away: the session ends by itself after the grace.
                  s.socket?.ws.close(1000);
                  s.socket = null;
                  return;
                }
                await expectJson(await s.client.post(`/api/chatsession/end/${target.id}`), 200);
                return;
              }
              case 'performerLeaves': {
                if (!studio || !v.online) return;
                studio.ws.close(1000);
                studio = null;
                await until((x) => x.performers === 0 && x.perfGoneAt === now);
                away.push({ from: now, to: null });
                return;
              }
              case 'performerBack': {
                if (studio) return;
                // Past the grace the show went offline: going online again first.
                if (!v.online) await expectJson(await performer.post('/api/studio/status', { online: true }), 200);
                const token = await expectJson<{ login: string; password: string }>(await performer.post('/api/studio/connect'), 200);
                studio = await joinRoom(show.id, token.login, token.password);
                await studio.next('welcome');
                const open = away.find((a) => a.to === null);
                if (open) open.to = now;
                else away.push({ from: now, to: now });
                return;
              }
              case 'advance':
                now += o.ms;
                return;
              case 'alarm':
                await runInDurableObject(room(), async (instance: ShowRoom) => {
                  await (o.twice ? Promise.all([instance.alarm(), instance.alarm()]) : instance.alarm());
                });
                // Past the grace the show goes offline: from then on the performer is away until they come back.
                if (!(await view()).online && studio === null && !away.some((a) => a.to === null)) away.push({ from: now, to: null });
                return;
            }
          });
        }
        // The end of the run: the show goes offline, which ends every session (and charges nothing).
        await step(async () => {
          await expectJson(await performer.post('/api/studio/status', { online: false }), 200);
          await until((x) => x.sessions.length === 0);
        });
        studio?.ws.close(1000);
        for (const s of sessions.values()) s.socket?.ws.close(1000);

        const rows = new Map<string, { type: string; started_at: number | null; ended_at: number | null; minutes: number; coins: number; price: number }>();
        for (const id of sessions.keys()) {
          const r = await env.DB.prepare('SELECT type, started_at, ended_at, minutes, coins, price FROM chat_sessions WHERE id = ?').bind(id).first<{ type: string; started_at: number | null; ended_at: number | null; minutes: number; coins: number; price: number }>();
          if (r) rows.set(id, r);
        }
        const privates = [...sessions.entries()].filter(([, s]) => s.type === 'private' && s.startedAt !== null).map(([id, s]) => ({ from: s.startedAt as number, to: rows.get(id)?.ended_at ?? Infinity }));
        for (const { ref, at } of chargedAt) {
          const [, id, minute] = ref.split(':');
          const s = sessions.get(id);
          if (!s) continue;
          charged++;
          const row = rows.get(id)!;
          expect(s.startedAt, `${ref}: charged but never started`).not.toBeNull();
          const begins = minuteBegins(s.startedAt as number, Number(minute), away);
          const ctx = `${ref} (${s.type}) charged at ${at}, begins ${begins}, session ${s.startedAt}-${row.ended_at}, away ${JSON.stringify(away)}`;
          expect(begins, ctx).not.toBeNull();
          // Started by the time it was charged, while the session ran (and, for a voyeur, its private).
          expect(begins as number, ctx).toBeLessThanOrEqual(at);
          expect(begins as number, ctx).toBeLessThan(row.ended_at ?? Infinity);
          if (s.type === 'voyeur') expect(privates.some((p) => p.from <= (begins as number) && (begins as number) < p.to), ctx).toBe(true);
        }
        // Each session's record: minutes 1..n charged once each, at its price.
        for (const [id, row] of rows) {
          if (row.type === 'free') continue;
          const refs = [...seen].filter((r) => r.startsWith(`chat:${id}:`)).sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]));
          expect(refs).toEqual(Array.from({ length: row.minutes }, (_, i) => `chat:${id}:${i + 1}`));
          expect(row.coins).toBe(row.minutes * row.price);
        }
        await booksHold();
      }),
      // A failing run is reported as it is (shrinking replays whole rooms for minutes).
      { numRuns: 12, endOnFailure: true },
    );
    expect(runs).toBe(12);
    // The runs did charge (a property that never charged would prove nothing).
    expect(charged).toBeGreaterThan(0);
  }, 300_000);
});
