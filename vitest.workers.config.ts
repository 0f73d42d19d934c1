import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { seedTemplate } from './tests/api/seed-template';

// A key pair made once per run stands in for Google's signing keys (tests sign ID tokens with
// the private half; the worker only sees the public JWKS).
const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
const googleKid = 'test-google-key';
const googlePublicJwk = { ...google.publicKey.export({ format: 'jwk' }), kid: googleKid, alg: 'RS256', use: 'sig' };
const googlePrivateJwk = { ...google.privateKey.export({ format: 'jwk' }), kid: googleKid, alg: 'RS256' };

// A VAPID key pair for this run (Web Push, tests/api/push.test.ts): base64url, as the config holds it.
const vapid = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
const VAPID_PUBLIC_KEY = Buffer.concat([Buffer.from([4]), Buffer.from(vapid.x!, 'base64url'), Buffer.from(vapid.y!, 'base64url')]).toString('base64url');

const PEPPER = 'test-pepper-not-secret';
const migrations = readD1Migrations(fileURLToPath(new URL('./migrations', import.meta.url)));

// /api and pages tested inside workerd with the real bindings (D1 migrated and seeded).
export default defineConfig({
  // The worker bundles React's production build (wrangler.toml [define]); match its JSX runtime.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  plugins: [
    cloudflareTest(async () => ({
      main: './src/server/index.ts',
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        // Empty; tests/api/seed-template.test.ts checks the copy of the seeded database against it.
        d1Databases: { SEED_CHECK_DB: 'seed-check' },
        // The shards run in a worker of their own (wrangler.shard.toml); here the same class runs
        // in the application's worker (it still exports it), so tests reach a shard's state with
        // runInDurableObject. The two workers together: tests/e2e/rooms-shard-worker.test.ts and every
        // browser test of a live room.
        durableObjects: { ROOM_SHARD: { className: 'RoomShard', useSQLite: true } },
        bindings: {
          ENVIRONMENT: 'test',
          // Geo-blocking's development override (X-Dev-Geo / dev_geo): never in wrangler.toml (docs/geo-blocking.md).
          DEV_GEO: '1',
          PUBLIC_ORIGIN: 'http://localhost',
          PASSWORD_PEPPER: PEPPER,
          OPS_TOKEN: 'test-ops-token',
          VAPID_PUBLIC_KEY,
          VAPID_PRIVATE_KEY: vapid.d!,
          VAPID_SUBJECT: 'mailto:ops@livecam.example',
          // Subscriptions name the tests' local push receiver (tests/api/push-receiver.ts).
          PUSH_SERVICE_HOSTS: 'push.example.test',
          LOBBY_SHARDS: '3',
          LOBBY_MAX_SOCKETS: '2',
          // Below the shards' room (3 x 2), so the caps are what refuses in tests/api/realtime-limits.test.ts.
          REALTIME_MAX_PER_SESSION: '3',
          REALTIME_MAX_PER_ADDRESS: '5',
          // Live rooms: a one-second billed minute and a four-second grace (tests/api/chat-*.test.ts).
          // (The cut-off bench: ten-minute minutes, so no alarm of the room runs during its setup;
          // the minute-tick bench: its own, BENCH_MINUTE_MS.)
          CHAT_MINUTE_MS: process.env.BENCH_WORKERS === '1' ? (process.env.BENCH_MINUTE_MS ?? '600000') : '1000',
          // (The minute-tick bench's sessions hold no socket: a grace beyond its run keeps them.)
          CHAT_GRACE_MS: process.env.BENCH_WORKERS === '1' ? '600000' : '4000',
          // Two viewers' sessions per shard: a show with three viewers already spans two shards.
          ROOM_SHARD_SIZE: process.env.BENCH_WORKERS === '1' ? '1000' : '2',
          // External provider sessions end three seconds after their last extend (tests/api/chat-external.test.ts).
          CHAT_EXTERNAL_LEASE_MS: '3000',
          GOOGLE_CLIENT_ID: 'test-client-id.apps.googleusercontent.com',
          GOOGLE_JWKS_JSON: JSON.stringify({ keys: [googlePublicJwk] }),
          TEST_GOOGLE_PRIVATE_JWK: JSON.stringify(googlePrivateJwk),
          BENCH_CUTOFF_VIEWERS: process.env.BENCH_CUTOFF_VIEWERS ?? '1000',
          BENCH_SFU_LATENCY_MS: process.env.BENCH_SFU_LATENCY_MS ?? '40',
          BENCH_SESSIONS: process.env.BENCH_SESSIONS ?? '1000',
          BENCH_TICKS: process.env.BENCH_TICKS ?? '10',
          TEST_MIGRATIONS: await migrations,
          // The migrated and seeded demo database as SQL, made once per run (the first file waits
          // for it); tests/api/setup.ts runs it in each file's fresh D1.
          TEST_SEED_SQL: await seedTemplate(await migrations, PEPPER),
        },
      },
    })),
  ],
  test: {
    // BENCH_WORKERS=1: the benches that run in the Workers runtime instead (bench/run.mjs).
    include: process.env.BENCH_WORKERS === '1' ? ['bench/workers/*.test.ts'] : ['tests/api/**/*.test.ts', 'tests/api/**/*.test.tsx'],
    setupFiles: ['./tests/api/setup.ts'],
    // Two pool workers, each a workerd that runs its files one after another (Vitest's default on
    // two cores is one worker: the suite took 228 s, with two 156 s). isolate: false keeps a
    // worker's modules loaded from one file to the next: loading the worker's module graph took
    // about 4 s per file, 288 s of the suite's 314 s on 2026-11-26 (ccabae1); with it the suite
    // takes about 145 s. setup.ts wipes what the previous file left (tests/api/reset.ts). A test
    // making dozens of requests may take seconds when the machine is busy: speed is measured in
    // benchmarks, not by timeouts here.
    maxWorkers: 2,
    isolate: false,
    testTimeout: 30_000,
  },
});
