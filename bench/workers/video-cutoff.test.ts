import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { FetchLike } from '../../src/server/features/video/realtime-api';
import { relay } from '../../src/server/features/video/video-host';
import { roomOf } from '../../src/server/features/chat/chat.service';
import type { ShowRoom } from '../../src/server/features/chat/room/show-room';
import { Client } from '../../tests/api/helpers';
import { chatMember, liveShow, startOk, viewer } from '../../tests/api/chat-helpers';
import { FakeRealtime } from '../../tests/api/fake-realtime';
import { sfuHelpers, useFakeSfu } from '../../tests/api/sfu-helpers';

// Cut-off bench (`npm run bench -- video_cutoff`, run by bench/run.mjs in the Workers runtime):
// a show on the SFU engine over the fake of tests/api/fake-realtime.ts, each API call delayed by
// BENCH_SFU_LATENCY_MS (a round trip to Cloudflare's API), with BENCH_CUTOFF_VIEWERS viewers
// pulling its video. Five of them are real free-chat sockets; the rest are pulled through the
// room's own engine (an SFU session each, answered and connected, kept in the room's storage)
// without a socket. Those the room does not count as its viewers, so any plan of the room cuts them
// off: the member's private socket joins (and the room's push after it runs) before they pull, and
// the room's minutes last ten minutes in this run (vitest.workers.config.ts), so no alarm plans in
// between. Then the performer accepts the private and the bench
// times, from the accept: the publication closed at the SFU (every free viewer's video stops),
// the API calls made until then, the sockets told, the performer asked to publish again, and the
// cleanup of every forgotten session (information). It prints one `CUTOFF {json}` line, which
// run.mjs reports as `BENCH` with the load average beside it.

const VIEWERS = Number((env as unknown as Record<string, string>).BENCH_CUTOFF_VIEWERS) || 1000;
const LATENCY_MS = Number((env as unknown as Record<string, string>).BENCH_SFU_LATENCY_MS) || 40;
const SOCKETS = 5;

const fake = new FakeRealtime();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let publisherSession = '';
let cutAt = 0;
/** Sessions whose tracks the room closed (a 200). */
const closed = new Set<string>();
const delayed: FetchLike = async (input, init) => {
  await sleep(LATENCY_MS);
  const res = await fake.fetch(input, init);
  const closedOne = res.ok && new URL(input).pathname.match(/sessions\/([^/]+)\/tracks\/close$/)?.[1];
  if (closedOne) closed.add(closedOne);
  if (closedOne === publisherSession && !cutAt) cutAt = performance.now();
  return res;
};
useFakeSfu(fake, delayed);
const { publish, pull } = sfuHelpers(fake);

it(`cuts ${VIEWERS} SFU viewers off`, { timeout: 600_000 }, async () => {
  const { show, studio } = await liveShow(253);
  publisherSession = await publish(show.id, studio);
  const free = [];
  for (let i = 0; i < SOCKETS; i++) {
    const f = await startOk(new Client(), show.universalId, 'free');
    const room = await viewer(show.id, f);
    expect((await room.next('video')).state).toBe('live');
    free.push({ room, session: await pull(show.id, room, f.sessionId) });
  }
  const m = await chatMember();
  const p = await startOk(m.client, show.universalId, 'private');
  const member = await viewer(show.id, p);
  // The room's coalesced push after that join (200 ms, state.ts pushSoon) plans before the pulls.
  await sleep(500);

  const joinStart = performance.now();
  const simulated = await runInDurableObject(roomOf(env, show.id), async (instance: ShowRoom) => {
    const engine = relay(instance.room);
    const sessions: string[] = [];
    for (let i = SOCKETS; i < VIEWERS; i += 50) {
      const batch = Array.from({ length: Math.min(50, VIEWERS - i) }, (_, j) => `sim-${i + j}`);
      await Promise.all(
        batch.map(async (key) => {
          const pulled = await engine.pull(show.id, key);
          if (pulled.relay !== 'cloudflare') throw new Error('not the SFU engine');
          await engine.renegotiate(pulled.sessionId, { type: 'answer', sdp: `answer of ${key}` });
          sessions.push(pulled.sessionId);
        }),
      );
    }
    return sessions;
  });
  const joinMs = performance.now() - joinStart;
  expect(simulated.length).toBe(VIEWERS - SOCKETS);

  const callsBefore = fake.calls.length;
  const t0 = performance.now();
  studio.send({ t: 'accept', sessionId: p.sessionId });
  const told = Promise.all(free.map((f) => f.room.next('video', (e) => e.state === 'private'))).then(() => performance.now());
  const republish = studio.next('error', (e) => e.code === 'video.republish').then(() => performance.now());
  const [toldAt, republishAt] = await Promise.all([told, republish]);
  expect(cutAt).toBeGreaterThan(t0);
  const callsUntilCut = fake.calls.slice(callsBefore).length;
  const all = [...simulated, ...free.map((f) => f.session)];
  await expect.poll(() => all.filter((s) => !closed.has(s)).length, { timeout: 300_000, interval: 20 }).toBe(0);
  const cleanAt = performance.now();
  expect(fake.sessions.get(publisherSession)?.tracks.size).toBe(0);

  const ms = (t: number) => Math.round(t - t0);
  console.log(
    `CUTOFF ${JSON.stringify({
      viewers: VIEWERS,
      sfu_latency_ms: LATENCY_MS,
      cut_ms: ms(cutAt),
      api_calls_until_cut: callsUntilCut,
      sockets_told_ms: ms(toldAt),
      republish_asked_ms: ms(republishAt),
      cleanup_ms: ms(cleanAt),
      join_per_s: Math.round((VIEWERS - SOCKETS) / (joinMs / 1000)),
    })}`,
  );
  for (const s of [...free.map((f) => f.room), member, studio]) s.ws.close(1000);
});
