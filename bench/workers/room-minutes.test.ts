import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, it } from 'vitest';
import { minutePrice } from '../../src/shared/chat';
import { roomOf } from '../../src/server/features/chat/chat.service';
import { acceptSession, tick } from '../../src/server/features/chat/room/meter';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { meterTestHooks } from '../../src/server/features/chat/room/state';
import { liveShow } from '../../tests/api/chat-helpers';
import { booksHold } from '../../tests/api/ledger-books';

// Minute-tick bench (`npm run bench -- room_minutes`, run by bench/run.mjs in the Workers
// runtime): one show with BENCH_SESSIONS paid sessions at once (a private the performer accepted
// and voyeurs watching it), each of its own member, all started at the same instant, so every tick
// has every session's minute due (the worst case). On the room's own clock (meterTestHooks), with
// a minute of BENCH_MINUTE_MS (the room's CHAT_MINUTE_MS), the bench runs BENCH_TICKS ticks one minute apart and times each
// (from the call to its end: the D1 batches, the room's storage, the sends). Then it counts every
// session's charged minutes against the minutes that started, and checks the books. It prints one
// `MINUTES {json}` line, which run.mjs reports as `BENCH` with the load average beside it.

const vars = env as unknown as Record<string, string>;
const SESSIONS = Number(vars.BENCH_SESSIONS) || 1000;
const MINUTE = Number(vars.CHAT_MINUTE_MS); // BENCH_MINUTE_MS (vitest.workers.config.ts)
const TICKS = Number(vars.BENCH_TICKS) || 10;
const SHOW = 259;

let now = Date.now() + 86_400_000;
meterTestHooks.now = () => now;
afterAll(() => {
  meterTestHooks.now = undefined;
});

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

it(`ticks ${SESSIONS} paid sessions`, { timeout: 900_000 }, async () => {
  const { show } = await liveShow(SHOW);
  // Members with coins for every minute of the run, each paid in by a ledger row (the books hold).
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO users (name, email, password_hash, is_verified, age_verified, created_at) SELECT 'bench' || i, 'bench' || i || '@example.test', 'x', 1, 1, 0 FROM n`,
  )
    .bind(SESSIONS)
    .run();
  await env.DB.prepare("INSERT INTO ledger (user_id, amount, reason, ref, created_at, counter) SELECT id, 100000, 'payment', 'bench-coins:' || id, 0, 'payments' FROM users WHERE name GLOB 'bench[0-9]*'").run();
  const { results: members } = await env.DB.prepare("SELECT id FROM users WHERE name GLOB 'bench[0-9]*' ORDER BY id").all<{ id: number }>();

  const stub = roomOf(env, show.id);
  const conf = await runInDurableObject(stub, (instance: ShowRoom) => instance.room.show!);
  const setupStart = performance.now();
  const ids: string[] = [];
  for (const [i, m] of members.entries()) {
    const id = `bench-${i}`;
    const type = i === 0 ? 'private' : 'voyeur';
    const res = await stub.register({ id, uid: m.id, visitor: `v${i}`, nick: `B${i}`, type, price: minutePrice(type, show.price, show.factor), phone: null }, conf);
    if (!res.ok) throw new Error(`session ${i}: ${res.code}`);
    if (i === 0) await runInDurableObject(stub, (instance: ShowRoom) => acceptSession(instance.room, instance.room.sessions.get(id)!).then(() => undefined));
    ids.push(id);
  }
  // All started now, all with a socket (none is gone): every tick has every minute due.
  const start = now;
  await runInDurableObject(stub, async (instance: ShowRoom) => {
    for (const s of instance.room.sessions.values()) Object.assign(s, { startedAt: start, goneAt: null });
  });
  const setupMs = performance.now() - setupStart;

  const ticks: number[] = [];
  for (let t = 1; t <= TICKS; t++) {
    now = start + t * MINUTE + 10;
    ticks.push(await runInDurableObject(stub, async (instance: ShowRoom) => {
      const began = performance.now();
      await tick(instance.room);
      return performance.now() - began;
    }));
  }
  const { results } = await env.DB.prepare("SELECT ref FROM ledger WHERE ref GLOB 'chat:bench-*' AND ref NOT GLOB '*:house'").all<{ ref: string }>();
  const charged = new Map<string, number>();
  for (const { ref } of results) {
    const id = ref.split(':')[1];
    charged.set(id, (charged.get(id) ?? 0) + 1);
  }
  let double = 0;
  let missed = 0;
  for (const id of ids) {
    const n = charged.get(id) ?? 0;
    double += Math.max(0, n - (TICKS + 1));
    missed += Math.max(0, TICKS + 1 - n);
  }
  const ended = await runInDurableObject(stub, (instance: ShowRoom) => SESSIONS - instance.room.sessions.size);
  await booksHold();
  const sorted = [...ticks].sort((a, b) => a - b);
  const out = { sessions: SESSIONS, minute_ms: MINUTE, ticks: TICKS, tick_p50_ms: Math.round(pct(sorted, 50)), tick_p99_ms: Math.round(pct(sorted, 99)), tick_max_ms: Math.round(sorted.at(-1)!), double, missed, ended, setup_ms: Math.round(setupMs) };
  console.log(`MINUTES ${JSON.stringify(out)}`);
});
