import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startServer, type StartedServer } from '../../scripts/lib.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrls: string[];
  }
}

/**
 * One server per test worker (vitest.e2e.config.ts), so files running at once share no state.
 * One by default: with two on two cores the run took 14 instead of about 19 minutes, but once a
 * plain GET waited 20 s for its busy server; E2E_WORKERS=2 where there are cores to spare.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || 1);

/** A throwaway server with its own migrated and seeded D1 in a temp folder. */
async function throwawayServer(): Promise<{ server: StartedServer; persistTo: string }> {
  const persistTo = mkdtempSync(join(tmpdir(), 'livecam-e2e-'));
  try {
    // Every page of the run comes from one address: the per-address caps of anonymous writes
    // (sign-ups, mails, client logs) are raised for it (ignored in production; tests/api asserts them).
    // A chat minute lasts 4 s, so the room tests see minutes charged without waiting a real one.
    const server = await startServer({ port: await freePort(), persistTo, vars: { ADDRESS_LIMIT_FACTOR: '100', CHAT_MINUTE_MS: '4000' } });
    return { server, persistTo };
  } catch (error) {
    // startServer puts wrangler's output into its error message; make sure it is seen.
    console.error('e2e: the test server did not start\n', error instanceof Error ? error.message : error);
    rmSync(persistTo, { recursive: true, force: true });
    throw error;
  }
}

/** The servers of the run: test worker N (VITEST_POOL_ID) uses the Nth (tests/e2e/browser.ts baseUrl). */
export default async function setup(project: TestProject) {
  const started = await Promise.allSettled(Array.from({ length: E2E_WORKERS }, () => throwawayServer()));
  const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stopAll = async () => {
    for (const { server, persistTo } of servers) {
      await server.stop();
      if (process.env.E2E_SERVER_LOG) console.log(server.log());
      rmSync(persistTo, { recursive: true, force: true });
    }
  };
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide('baseUrls', servers.map((s) => s.server.url));
  return stopAll;
}
