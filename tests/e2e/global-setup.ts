import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { freePort, startServer, type StartedServer } from '../../scripts/lib.mjs';
import { BROWSER_ARGS, CHROMIUM, FAKE_MEDIA } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrls: string[];
    /** The run's Chromium servers (tests/e2e/browser.ts connects to them). */
    browsers: { plain: string; media: string };
  }
}

/**
 * One server per test worker (vitest.e2e.config.ts), so files running at once share no state.
 * E2E_WORKERS=N runs N files at once (default 1: see vitest.e2e.config.ts).
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || 1);

/** A throwaway server with its own migrated and seeded D1 in a temp folder. */
async function throwawayServer(vars: Record<string, string> = {}): Promise<{ server: StartedServer; persistTo: string }> {
  const persistTo = mkdtempSync(join(tmpdir(), 'livecam-e2e-'));
  try {
    // Every page of the run comes from one address: the per-address caps of anonymous writes
    // (sign-ups, mails, client logs) are raised for it (ignored in production; tests/api asserts them).
    // A chat minute lasts 4 s, so the room tests see minutes charged without waiting a real one.
    const server = await startServer({ port: await freePort(), persistTo, vars: { ADDRESS_LIMIT_FACTOR: '100', CHAT_MINUTE_MS: '4000', ...vars } });
    return { server, persistTo };
  } catch (error) {
    // startServer puts wrangler's output into its error message; make sure it is seen.
    console.error('e2e: the test server did not start\n', error instanceof Error ? error.message : error);
    rmSync(persistTo, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The servers of the run: test worker N (VITEST_POOL_ID) uses the Nth (tests/e2e/browser.ts
 * baseUrl). Two Chromium servers are started with them, one plain and one with the fake camera
 * (live video): each test file connects to them (tens of milliseconds) instead of launching a
 * browser of its own (a second or two each, twice for the room files).
 */
export default async function setup(project: TestProject) {
  const launchBrowser = (args: string[]) => chromium.launchServer({ executablePath: CHROMIUM, headless: true, args });
  const [browsersStarted, ...started] = await Promise.allSettled([
    Promise.all([launchBrowser(BROWSER_ARGS), launchBrowser([...BROWSER_ARGS, ...FAKE_MEDIA])]),
    ...Array.from({ length: E2E_WORKERS }, () => throwawayServer()),
  ]);
  const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value as { server: StartedServer; persistTo: string }] : []));
  const browsers: BrowserServer[] = browsersStarted.status === 'fulfilled' ? browsersStarted.value : [];
  const stopAll = async () => {
    await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
    for (const { server, persistTo } of servers) {
      await server.stop();
      if (process.env.E2E_SERVER_LOG) console.log(server.log());
      rmSync(persistTo, { recursive: true, force: true });
    }
  };
  const failed = [browsersStarted, ...started].find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide('baseUrls', servers.map((s) => s.server.url));
  project.provide('browsers', { plain: browsers[0].wsEndpoint(), media: browsers[1].wsEndpoint() });
  return stopAll;
}
